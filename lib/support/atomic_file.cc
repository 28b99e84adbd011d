#include "support/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace mslport {

namespace {

// Writes `content` to a new temporary file beside `path` and flushes it.
bool write_temp(const std::string& path, const std::string& content, std::string* tmp_out, std::string* error) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    if (error) *error = "cannot create '" + tmp + "': " + std::strerror(errno);
    return false;
  }
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (error) *error = "cannot write '" + tmp + "': " + std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return false;
    }
    p += n;
    left -= (size_t)n;
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    if (error) *error = "cannot flush '" + tmp + "': " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  *tmp_out = tmp;
  return true;
}

// A destination rename(2) would refuse: a directory, or a missing folder.
bool check_destination(const std::string& path, std::string* error) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (error) *error = "'" + path + "' is a directory, not a file path";
    return false;
  }
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    if (error) *error = "cannot write '" + path + "': no directory '" + dir + "'";
    return false;
  }
  return true;
}

}  // namespace

bool write_file_atomic(const std::string& path, const std::string& content, std::string* error) {
  return write_files_atomic({{path, content}}, error);
}

bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string* error) {
  for (const auto& f : files)
    if (!check_destination(f.first, error)) return false;
  std::vector<std::string> temps;
  auto drop_temps = [&](size_t from) {
    for (size_t i = from; i < temps.size(); ++i) ::unlink(temps[i].c_str());
  };
  for (const auto& f : files) {
    std::string tmp;
    if (!write_temp(f.first, f.second, &tmp, error)) {
      drop_temps(0);
      return false;
    }
    temps.push_back(tmp);
  }
  for (size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      if (error)
        *error = "cannot rename '" + temps[i] + "' to '" + files[i].first + "': " + std::strerror(errno) +
                 (i ? " (" + std::to_string(i) + " of the " + std::to_string(files.size()) +
                          " files were already replaced)"
                    : "");
      drop_temps(i);
      return false;
    }
  }
  return true;
}

bool read_file(const std::string& path, std::string* content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *content = ss.str();
  return true;
}

}  // namespace mslport
