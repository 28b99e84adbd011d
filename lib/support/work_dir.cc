#include "support/work_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace mslport {

namespace {

// $TMPDIR as std::filesystem::temp_directory_path reads it, without its
// exception: a TMPDIR that is not a directory is a message.
bool temp_dir(std::string* dir, std::string* error) {
  const char* t = std::getenv("TMPDIR");
  std::string d = t && *t ? t : "/tmp";
  struct stat st;
  if (::stat(d.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = "the temporary directory '" + d + "' (TMPDIR) is not a directory";
    return false;
  }
  *dir = d;
  return true;
}

}  // namespace

bool prepare_work_root(const std::string& explicit_dir, std::string* root, std::string* error) {
  if (!explicit_dir.empty()) {
    std::error_code ec;
    if (fs::exists(explicit_dir, ec) && !fs::is_directory(explicit_dir, ec)) {
      *error = "--work-dir '" + explicit_dir + "' is not a directory";
      return false;
    }
    fs::create_directories(explicit_dir, ec);
    if (ec) {
      *error = "cannot create --work-dir '" + explicit_dir + "': " + ec.message();
      return false;
    }
    *root = explicit_dir;
    return true;
  }
  std::string tmp;
  if (!temp_dir(&tmp, error)) return false;
  std::string dir = (fs::path(tmp) / ("mslport-" + std::to_string(::getuid()))).string();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = "cannot create '" + dir + "': " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0) {
    *error = "cannot use '" + dir + "': " + std::strerror(errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 077) != 0) {
    *error = "refusing to use '" + dir + "' for compiled modules: it is " +
             (!S_ISDIR(st.st_mode)      ? std::string("not a directory")
              : st.st_uid != ::getuid() ? "owned by another user"
                                        : "open to other users") +
             " (remove it, or pass --work-dir)";
    return false;
  }
  *root = dir;
  return true;
}

RunDir::~RunDir() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

bool RunDir::create(const std::string& parent, const std::string& prefix, std::string* error) {
  std::string tmpl = (fs::path(parent) / (prefix + ".XXXXXX")).string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!::mkdtemp(buf.data())) {
    *error = "cannot create a directory in '" + parent + "': " + std::strerror(errno);
    return false;
  }
  path_ = buf.data();
  return true;
}

}  // namespace mslport
