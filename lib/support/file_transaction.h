// Replaces and removes a set of files so that the set is either all old or
// all new, even when the process dies at any instant (SIGKILL, power loss):
// `mslport regen`'s targets/, and each `translate -o` pair (X.cpp + X.h,
// X.cl + X.bindings.json).
//
// A transaction is rooted at a directory (targets/, or the folder of -o):
//   1. it locks the root (flock on the directory itself), completes a
//      transaction that a crash left there (its journal) and deletes the
//      temporaries that a crash left before its journal was written;
//   2. it writes each new content to a temporary file beside its destination
//      (".NAME.mslport-tmp-XXXXXX", held under flock while in use) and
//      flushes it;
//   3. it writes the journal, ROOT/.mslport-journal, naming every rename
//      and removal, flushes it and its folder: the commit point;
//   4. it renames and removes, flushes the folders, and deletes the journal.
// Dying before 3 leaves the old set and stray temporaries; dying after it
// leaves a journal that the next transaction on the root (or recover())
// finishes. Readers that must not see a half-applied set check
// has_unfinished_transaction() first.
//
// Destinations are followed through symbolic links (the link stays, its
// target is replaced). A destination that exists and is not a regular file
// (a device, a FIFO, a directory) is refused: it cannot be replaced
// atomically, and replacing /dev/null with a regular file damages a system.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mslport {

// The journal's name in the root directory.
extern const char* const kJournalName;

class FileTransaction {
 public:
  explicit FileTransaction(std::string root);
  // Paths are as the caller names them (absolute or relative to the working
  // directory); inside the root is usual, not required.
  void write(const std::string& path, std::string content);
  void remove(const std::string& path);
  // All or nothing; false with *error set leaves every destination as it
  // was (unless the failure comes after the commit point, which the message
  // says, and the next transaction on the root completes).
  bool commit(std::string* error);

 private:
  std::string root_;
  std::vector<std::pair<std::string, std::string>> writes_;
  std::vector<std::string> removes_;
};

struct RecoveryReport {
  int completed = 0;              // renames and removals of an interrupted transaction done now
  int temporaries_removed = 0;    // stray temporary files deleted
  std::vector<std::string> dirs;  // where temporaries were looked for (besides the root)
};

// Step 1 alone, under the root's lock: finishes an interrupted transaction
// and deletes stray temporaries in the root and in `dirs`.
bool recover_file_transaction(const std::string& root, const std::vector<std::string>& dirs, RecoveryReport* report,
                              std::string* error);

// Whether a crash left a journal in root that no transaction has finished.
bool has_unfinished_transaction(const std::string& root);

// Follows symbolic links from `path` to the file they name (which need not
// exist); false with *error on a loop or an unreadable link.
bool resolve_symlinks(const std::string& path, std::string* resolved, std::string* error);

}  // namespace mslport
