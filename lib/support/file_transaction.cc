#include "support/file_transaction.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace mslport {

const char* const kJournalName = ".mslport-journal";

namespace {

constexpr const char* kTempMarker = ".mslport-tmp-";
constexpr const char* kJournalMagic = "mslport-journal 1";

std::string errno_text() { return std::strerror(errno); }

std::string dir_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Flushes a folder, so that renames and removals in it survive power loss.
void fsync_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The process umask, read without changing it (umask(2) would, racing with
// other threads).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

bool write_all(int fd, const std::string& content) {
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// A temporary file beside `dest`, written, flushed and held under flock
// until closed, so that recovery in another process never deletes it.
struct Temp {
  std::string path;
  int fd = -1;
};

bool write_temp(const std::string& dest, const std::string& content, Temp* out, std::string* error) {
  std::string tmpl = dir_of(dest) + "/." + base_of(dest) + kTempMarker + "XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot create a temporary file beside '" + dest + "': " + errno_text();
    return false;
  }
  out->path = name.data();
  out->fd = fd;
  ::flock(fd, LOCK_EX);
  // The replaced file's permissions if there is one, else what open(2)
  // would give a new file (mkstemp's 0600 would make outputs private).
  struct stat st;
  mode_t mode = ::stat(dest.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~current_umask());
  ::fchmod(fd, mode);
  if (!write_all(fd, content)) {
    *error = "cannot write '" + out->path + "': " + errno_text();
    return false;
  }
  if (::fsync(fd) != 0) {
    *error = "cannot flush '" + out->path + "': " + errno_text();
    return false;
  }
  return true;
}

void drop_temps(std::vector<Temp>* temps) {
  for (Temp& t : *temps) {
    if (t.fd >= 0) ::close(t.fd);
    ::unlink(t.path.c_str());
  }
  temps->clear();
}

void close_temps(std::vector<Temp>* temps) {
  for (Temp& t : *temps)
    if (t.fd >= 0) ::close(t.fd);
  temps->clear();
}

// Journal lines: "rename\tTMP\tDEST" and "remove\tDEST", fields escaped so a
// tab or newline in a file name cannot break a line.
std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '\\') o += "\\\\";
    else if (c == '\t') o += "\\t";
    else if (c == '\n') o += "\\n";
    else o += c;
  }
  return o;
}

std::string unescape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char n = s[++i];
      o += n == 't' ? '\t' : n == 'n' ? '\n' : n;
    } else {
      o += s[i];
    }
  }
  return o;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    f.push_back(unescape(line.substr(start, tab - start)));
  f.push_back(unescape(line.substr(start)));
  return f;
}

// Journal paths are relative to the root when they lie inside it, so that
// a moved checkout still recovers.
std::string journal_path_of(const std::string& root, const std::string& path) {
  std::string prefix = root == "/" ? "/" : root + "/";
  if (path.rfind(prefix, 0) == 0) return path.substr(prefix.size());
  return path;
}

std::string path_in_root(const std::string& root, const std::string& p) {
  return !p.empty() && p[0] == '/' ? p : root + "/" + p;
}

struct Journal {
  std::vector<std::pair<std::string, std::string>> renames;  // temporary, destination
  std::vector<std::string> removes;
};

bool read_journal(const std::string& root, Journal* j, std::string* error) {
  std::ifstream in(root + "/" + kJournalName, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line != kJournalMagic) {
    *error = "'" + root + "/" + kJournalName + "' is not a journal mslport wrote; inspect and remove it";
    return false;
  }
  bool ended = false;
  while (std::getline(in, line)) {
    auto f = split_tabs(line);
    if (f.size() == 3 && f[0] == "rename") j->renames.emplace_back(path_in_root(root, f[1]), path_in_root(root, f[2]));
    else if (f.size() == 2 && f[0] == "remove") j->removes.push_back(path_in_root(root, f[1]));
    else if (f.size() == 1 && f[0] == "end") ended = true;
    else {
      *error = "'" + root + "/" + kJournalName + "' has a line mslport does not write: " + line;
      return false;
    }
  }
  if (!ended) {
    *error = "'" + root + "/" + kJournalName + "' is truncated; inspect and remove it";
    return false;
  }
  return true;
}

// Renames and removals of a committed journal. Each step is idempotent, so
// that a crash during recovery is recovered too.
bool apply_journal(const Journal& j, int* steps, std::string* error) {
  std::set<std::string> dirs;
  for (const auto& [tmp, dest] : j.renames) {
    struct stat st;
    if (::lstat(tmp.c_str(), &st) != 0) continue;  // renamed before the crash
    if (::rename(tmp.c_str(), dest.c_str()) != 0) {
      *error = "cannot rename '" + tmp + "' to '" + dest + "': " + errno_text();
      return false;
    }
    dirs.insert(dir_of(dest));
    ++*steps;
  }
  for (const auto& dest : j.removes) {
    if (::unlink(dest.c_str()) == 0) {
      dirs.insert(dir_of(dest));
      ++*steps;
    } else if (errno != ENOENT) {
      *error = "cannot remove '" + dest + "': " + errno_text();
      return false;
    }
  }
  for (const auto& d : dirs) fsync_dir(d);
  return true;
}

// "NAME.tmp.PID", the temporaries of mslport before journals: whether `n`
// is one for a file of `dests` (full paths) whose writer is gone. Only
// those: another file of that shape is somebody else's.
bool legacy_temp_of_dead_process(const std::string& dir, const std::string& n, const std::set<std::string>& dests) {
  size_t at = n.rfind(".tmp.");
  if (at == std::string::npos || at == 0 || at + 5 >= n.size()) return false;
  if (!dests.count(dir + "/" + n.substr(0, at))) return false;
  for (size_t i = at + 5; i < n.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(n[i]))) return false;
  long pid = std::strtol(n.c_str() + at + 5, nullptr, 10);
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Deletes temporaries nobody holds in `dir` (a live writer holds its lock),
// and those an older mslport left for files of `dests`.
int remove_stray_temps(const std::string& dir, const std::set<std::string>& dests) {
  int removed = 0;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return 0;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n.size() > 1 && n[0] == '.' && n.find(kTempMarker) != std::string::npos) {
      names.push_back(n);
    } else if (legacy_temp_of_dead_process(dir, n, dests)) {
      struct stat st;
      std::string p = dir + "/" + n;
      if (::lstat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::unlink(p.c_str()) == 0) ++removed;
    }
  }
  ::closedir(d);
  for (const auto& n : names) {
    std::string p = dir + "/" + n;
    int fd = ::open(p.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::unlink(p.c_str()) == 0)
      ++removed;
    ::close(fd);
  }
  return removed;
}

// Holds flock on a directory for as long as it lives.
class DirLock {
 public:
  bool lock(const std::string& dir, std::string* error) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) {
      *error = "cannot open the folder '" + dir + "': " + errno_text();
      return false;
    }
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        *error = "cannot lock the folder '" + dir + "': " + errno_text();
        return false;
      }
    }
    return true;
  }
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_ = -1;
};

bool recover_locked(const std::string& root, const std::vector<std::string>& dirs, RecoveryReport* report,
                    std::string* error, const std::set<std::string>& dests = {}) {
  struct stat st;
  const std::string journal = root + "/" + kJournalName;
  if (::lstat(journal.c_str(), &st) == 0) {
    Journal j;
    if (!read_journal(root, &j, error)) return false;
    if (!apply_journal(j, &report->completed, error)) return false;
    if (::unlink(journal.c_str()) != 0 && errno != ENOENT) {
      *error = "cannot remove '" + journal + "': " + errno_text();
      return false;
    }
    fsync_dir(root);
  }
  std::set<std::string> seen{root};
  report->temporaries_removed += remove_stray_temps(root, dests);
  for (const auto& d : dirs)
    if (seen.insert(d).second) report->temporaries_removed += remove_stray_temps(d, dests);
  report->dirs.assign(seen.begin(), seen.end());
  return true;
}

// Absolute and without "." or ".." steps (symbolic links are kept), so
// that journal entries can be made relative to the root by prefix.
std::string absolute_path(const std::string& p) {
  std::error_code ec;
  std::string s = std::filesystem::absolute(p.empty() ? "." : p, ec).lexically_normal().string();
  if (ec) s = p;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string normalize_root(const std::string& root) { return absolute_path(root); }

}  // namespace

bool resolve_symlinks(const std::string& path, std::string* resolved, std::string* error) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st;
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      *resolved = p;
      return true;
    }
    std::vector<char> buf(static_cast<size_t>(st.st_size > 0 ? st.st_size : PATH_MAX) + 1);
    ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) {
      *error = "cannot read the symbolic link '" + p + "': " + errno_text();
      return false;
    }
    std::string target(buf.data(), static_cast<size_t>(n));
    p = !target.empty() && target[0] == '/' ? target : dir_of(p) + "/" + target;
  }
  *error = "'" + path + "': too many levels of symbolic links";
  return false;
}

bool has_unfinished_transaction(const std::string& root) {
  struct stat st;
  return ::lstat((normalize_root(root) + "/" + kJournalName).c_str(), &st) == 0;
}

bool recover_file_transaction(const std::string& root_in, const std::vector<std::string>& dirs, RecoveryReport* report,
                              std::string* error) {
  const std::string root = normalize_root(root_in);
  DirLock lock;
  if (!lock.lock(root, error)) return false;
  return recover_locked(root, dirs, report, error);
}

FileTransaction::FileTransaction(std::string root) : root_(normalize_root(std::move(root))) {}

void FileTransaction::write(const std::string& path, std::string content) {
  writes_.emplace_back(path, std::move(content));
}

void FileTransaction::remove(const std::string& path) { removes_.push_back(path); }

bool FileTransaction::commit(std::string* error) {
  std::string dummy;
  if (!error) error = &dummy;
  // Every destination is checked before anything is written.
  std::vector<std::string> dests;
  std::set<std::string> dirs;
  std::set<std::pair<dev_t, ino_t>> existing;
  std::set<std::string> named;
  for (const auto& [path, content] : writes_) {
    std::string dest;
    if (!resolve_symlinks(absolute_path(path), &dest, error)) return false;
    dest = absolute_path(dest);
    struct stat st;
    if (::stat(dest.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        *error = "'" + path + "' is a directory, not a file path";
        return false;
      }
      if (!S_ISREG(st.st_mode)) {
        *error = "'" + path + "' is not a regular file (a device, FIFO or socket); refusing to replace it";
        return false;
      }
      if (!existing.insert({st.st_dev, st.st_ino}).second) {
        *error = "two of the files to write are the same file ('" + path + "')";
        return false;
      }
    }
    const std::string dir = dir_of(dest);
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      *error = "cannot write '" + path + "': no directory '" + dir + "'";
      return false;
    }
    if (!named.insert(dest).second) {
      *error = "two of the files to write are the same file ('" + path + "')";
      return false;
    }
    dests.push_back(dest);
    dirs.insert(dir);
  }
  std::vector<std::string> removals;
  for (const auto& path : removes_) {
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      *error = "'" + path + "' is a directory; refusing to remove it";
      return false;
    }
    removals.push_back(absolute_path(path));
    if (named.count(removals.back())) {
      *error = "'" + path + "' is both written and removed";
      return false;
    }
    dirs.insert(dir_of(removals.back()));
  }

  DirLock lock;
  if (!lock.lock(root_, error)) return false;
  RecoveryReport recovered;
  if (!recover_locked(root_, std::vector<std::string>(dirs.begin(), dirs.end()), &recovered, error, named))
    return false;

  std::vector<Temp> temps;
  for (size_t i = 0; i < writes_.size(); ++i) {
    Temp t;
    bool ok = write_temp(dests[i], writes_[i].second, &t, error);
    if (!t.path.empty()) temps.push_back(t);
    if (!ok) {
      drop_temps(&temps);
      return false;
    }
  }
  for (const auto& d : dirs) fsync_dir(d);

  // The commit point: once the journal is in place the new set wins.
  std::string journal_text = std::string(kJournalMagic) + "\n";
  for (size_t i = 0; i < temps.size(); ++i)
    journal_text += "rename\t" + escape(journal_path_of(root_, temps[i].path)) + "\t" +
                    escape(journal_path_of(root_, dests[i])) + "\n";
  for (const auto& path : removals) journal_text += "remove\t" + escape(journal_path_of(root_, path)) + "\n";
  journal_text += "end\n";
  const std::string journal = root_ + "/" + kJournalName;
  Temp jt;
  if (!write_temp(journal, journal_text, &jt, error)) {
    if (!jt.path.empty()) temps.push_back(jt);
    drop_temps(&temps);
    return false;
  }
  if (::rename(jt.path.c_str(), journal.c_str()) != 0) {
    *error = "cannot write the journal '" + journal + "': " + errno_text();
    temps.push_back(jt);
    drop_temps(&temps);
    return false;
  }
  ::close(jt.fd);
  fsync_dir(root_);

  Journal j;
  for (size_t i = 0; i < temps.size(); ++i) j.renames.emplace_back(temps[i].path, dests[i]);
  j.removes = removals;
  int steps = 0;
  bool applied = apply_journal(j, &steps, error);
  close_temps(&temps);
  if (!applied) {
    *error += " (the set is committed: the next write to '" + root_ + "' completes it)";
    return false;
  }
  if (::unlink(journal.c_str()) != 0) {
    *error = "cannot remove the journal '" + journal + "': " + errno_text();
    return false;
  }
  fsync_dir(root_);
  return true;
}

}  // namespace mslport
