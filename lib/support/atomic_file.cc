#include "support/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "support/file_transaction.h"
#include "support/regular_file.h"

namespace mslport {

namespace {

std::string folder_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

bool write_file_atomic(const std::string& path, const std::string& content, std::string* error) {
  return write_files_atomic({{path, content}}, error);
}

bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string* error) {
  if (files.empty()) return true;
  // The journal goes where the first file really is (a link's target may
  // lie in another folder than the link).
  std::string first;
  std::string dummy;
  if (!error) error = &dummy;
  if (!resolve_symlinks(files[0].first, &first, error)) return false;
  struct stat st;
  const std::string root = folder_of(first);
  if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = "cannot write '" + files[0].first + "': no directory '" + root + "'";
    return false;
  }
  FileTransaction t(root);
  for (const auto& [path, content] : files) t.write(path, content);
  return t.commit(error);
}

bool is_stream_destination(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode));
}

bool write_through(const std::string& path, const std::string& content, std::string* error) {
  // No O_CREAT: it must already exist; no O_TRUNC: devices and FIFOs have
  // nothing to truncate.
  int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot open '" + path + "' for writing: " + std::strerror(errno);
    return false;
  }
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = "cannot write '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

bool read_file(const std::string& path, std::string* content) {
  std::string error;
  return read_regular_file(path, SIZE_MAX, content, &error);
}

}  // namespace mslport
