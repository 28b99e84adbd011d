// Every file a parse may include, read before clang reads anything, so that
// clang never reads a file itself: `#include "/dev/zero"` (or a FIFO, or a
// file of gigabytes) is an error at the directive instead of a parse whose
// memory grows without bound.
//
// The mechanism: the sources are scanned for #include, #include_next,
// #import and #embed directives (all of them, also under a false #if,
// comments and string literals aside); each name is resolved the way clang
// searches (an absolute name as it is; "quoted": beside the including file,
// then -iquote, -I, -isystem, -idirafter; <angled>: from -I on; the parse
// uses -nostdinc, so there is no other directory); the first candidate that
// exists must be a regular file of at most kMaxIncludedFileBytes, and is
// read and scanned in turn. The parse then gets every file's text from
// memory (libclang's unsaved files, matched by inode, so any spelling of
// the path finds it). A name built by a macro is followed when the macro
// is a plain `#define NAME "file"` (or <file>, or -DNAME=...); any other
// computed name is an error, since it could name a file nobody checked.
// After the parse, clang_getInclusions confirms that clang entered no file
// outside the set (parse_metal.cc).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "support/diagnostics.h"

namespace mslport::front {

// The largest source file, main or included, the front end reads.
constexpr size_t kMaxIncludedFileBytes = size_t{16} << 20;

struct IncludedFile {
  std::string path;  // as resolved (the directory searched + the name)
  std::string text;
};

// The include search of a parse, from its clang arguments.
struct IncludeSearch {
  std::vector<std::string> quote_dirs;                       // -iquote
  std::vector<std::string> dirs;                             // -I, -isystem, -idirafter, in that order
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE
};
IncludeSearch include_search_from_args(const std::vector<std::string>& clang_args);

// Reads what `main_path` (text in `main_text`) includes, transitively,
// appending to *files; files already there count as read (a second call
// for a -include'd prelude and the main file reads each file once).
// Problems are reported to diags at the directive (file:line:col); returns
// false when any was.
bool read_included_files(const std::string& main_path, const std::string& main_text, const IncludeSearch& search,
                         std::vector<IncludedFile>* files, DiagEngine& diags);

}  // namespace mslport::front
