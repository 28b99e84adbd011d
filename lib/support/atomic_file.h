// Writes files so that a reader (or a crash) never sees a half-written one:
// content goes to a temporary file in the same directory, is flushed, then
// renamed over the destination.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mslport {
// Returns false and sets *error on failure; the destination is untouched then.
bool write_file_atomic(const std::string& path, const std::string& content, std::string* error);
// A set of files that belong together (X.cpp and X.h, X.cl and
// X.bindings.json, a regen's targets): all or none. Every destination is
// checked (not a directory, its folder exists) and every temporary file
// written and flushed before the first is renamed over its destination, so
// a bad path or a full disk leaves every destination untouched.
bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string* error);
bool read_file(const std::string& path, std::string* content);
}  // namespace mslport
