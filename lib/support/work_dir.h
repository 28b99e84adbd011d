// Where `mslport check`, `mslport-run` and `bench` put what they build.
//
// The work root holds a cache of compiled modules (ROOT/build, named by a
// hash of their content, safe to share between concurrent runs) and one
// private directory per run (ROOT/run.XXXXXX, made by mkdtemp and deleted
// at the end), so that two runs never write each other's files.
//
// The default root is $TMPDIR/mslport-UID. A shared /tmp lets anyone create
// that name first and plant a module in it, so the default root must be a
// real directory (not a link) owned by this user and closed to others;
// otherwise the run stops with a message. An explicit --work-dir is the
// user's choice and only has to be a directory.
#pragma once

#include <string>

namespace mslport {

// Makes (or checks) the work root; false with *error set when it cannot be
// used. `explicit_dir` empty = the default root.
bool prepare_work_root(const std::string& explicit_dir, std::string* root, std::string* error);

// A fresh private directory, removed with everything in it on destruction.
class RunDir {
 public:
  RunDir() = default;
  ~RunDir();
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  // Creates PARENT/PREFIX.XXXXXX (mode 0700).
  bool create(const std::string& parent, const std::string& prefix, std::string* error);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mslport
