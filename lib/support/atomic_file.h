// Writes outputs the way a compiler should: a reader (or a crash) never sees
// a half-written file or half of a set of files, and nothing that is not an
// ordinary output is ever replaced.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mslport {
// Replaces one regular file (or creates it) atomically; a symbolic link is
// followed and its target replaced. Refuses a directory, a device, a FIFO or
// a socket. Returns false and sets *error on failure; the destination is
// untouched then.
bool write_file_atomic(const std::string& path, const std::string& content, std::string* error);
// A set of files that belong together (X.cpp and X.h, X.cl and
// X.bindings.json): all or none, even across a crash (a FileTransaction
// rooted at the first file's folder, support/file_transaction.h). Every
// destination is checked (not a directory or special file, its folder
// exists, no two name the same file) before anything is written.
bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string* error);

// Whether `path` names (through symbolic links) an existing FIFO, character
// or block device: /dev/null, /dev/stdout, a named pipe. Such an output is
// written through, never replaced.
bool is_stream_destination(const std::string& path);
// Opens an existing stream destination for writing and writes `content`.
bool write_through(const std::string& path, const std::string& content, std::string* error);

// Reads a regular file whole (false for a missing file, a FIFO, a device).
bool read_file(const std::string& path, std::string* content);
}  // namespace mslport
