#include "support/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mslport {

std::string byte_size_text(size_t bytes) {
  if (bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

namespace {

// Reads up to max_bytes of a regular file; past that, `prefix_only` stops
// there and otherwise it is an error.
bool read_regular(const std::string& path, size_t max_bytes, bool prefix_only, std::string* content,
                  std::string* error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below anyway. Regular files ignore the flag.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = "cannot read '" + path + "': " + std::strerror(errno);
    ::close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = "'" + path + "' is " +
             (S_ISDIR(st.st_mode)                          ? "a directory"
              : S_ISFIFO(st.st_mode)                       ? "a FIFO"
              : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                           : "not a regular file") +
             ", not a regular file";
    ::close(fd);
    return false;
  }
  auto too_big = [&]() {
    *error = "'" + path + "' is larger than " + byte_size_text(max_bytes) + ", the limit for this input";
    ::close(fd);
    return false;
  };
  if (!prefix_only && static_cast<unsigned long long>(st.st_size) > max_bytes) return too_big();
  std::string out;
  out.reserve(std::min<size_t>(static_cast<size_t>(st.st_size), max_bytes));
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = "cannot read '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    // The file may grow while it is read.
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      if (!prefix_only) return too_big();
      out.append(buf, max_bytes - out.size());
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  *content = std::move(out);
  return true;
}

}  // namespace

bool read_regular_file(const std::string& path, size_t max_bytes, std::string* content, std::string* error) {
  return read_regular(path, max_bytes, false, content, error);
}

bool read_regular_file_prefix(const std::string& path, size_t max_bytes, std::string* content, std::string* error) {
  return read_regular(path, max_bytes, true, content, error);
}

}  // namespace mslport
