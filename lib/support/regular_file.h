// Reads input files safely: only regular files, and only up to a size
// limit. Reading /dev/zero, a FIFO nobody writes or /dev/stdin would
// otherwise never end or grow memory without bound.
#pragma once

#include <cstddef>
#include <string>

namespace mslport {

// Reads all of `path` into *content. False with a message naming the path
// in *error when it cannot be opened, is not a regular file (directory,
// device, FIFO, socket), or holds more than max_bytes.
bool read_regular_file(const std::string& path, size_t max_bytes, std::string* content, std::string* error);
// The first max_bytes of a regular file (all of it when shorter): a
// file's header, say.
bool read_regular_file_prefix(const std::string& path, size_t max_bytes, std::string* content, std::string* error);

// Human-readable size for limits in messages: "16 MiB", "4096 bytes".
std::string byte_size_text(size_t bytes);

}  // namespace mslport
