// Writes files so that a reader (or a crash) never sees a half-written one:
// content goes to a temporary file in the same directory, is flushed, then
// renamed over the destination.
#pragma once
#include <string>

namespace mslport {
// Returns false and sets *error on failure; the destination is untouched then.
bool write_file_atomic(const std::string& path, const std::string& content, std::string* error);
bool read_file(const std::string& path, std::string* content);
}  // namespace mslport
