#include "runtime/isolated_executor.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <list>
#include <set>
#include <stdexcept>

#include "runtime/case_buffers.h"

namespace mslport::runtime {

namespace {

// ---- The messages between the two processes: length-prefixed binary
// records (file paths need not be UTF-8, so not JSON).

class Writer {
 public:
  void u32(uint32_t v) { raw(&v, sizeof v); }
  void u64(uint64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    buf_ += s;
  }
  const std::string& bytes() const { return buf_; }

 private:
  void raw(const void* p, size_t n) { buf_.append(static_cast<const char*>(p), n); }
  std::string buf_;
};

class Reader {
 public:
  explicit Reader(const std::string& b) : b_(b) {}
  uint32_t u32() {
    uint32_t v;
    raw(&v, sizeof v);
    return v;
  }
  uint64_t u64() {
    uint64_t v;
    raw(&v, sizeof v);
    return v;
  }
  double f64() {
    double v;
    raw(&v, sizeof v);
    return v;
  }
  std::string str() {
    uint32_t n = u32();
    if (n > b_.size() - pos_) throw std::runtime_error("malformed message from the worker process");
    std::string s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  void raw(void* p, size_t n) {
    if (n > b_.size() - pos_) throw std::runtime_error("malformed message from the worker process");
    std::memcpy(p, b_.data() + pos_, n);
    pos_ += n;
  }
  const std::string& b_;
  size_t pos_ = 0;
};

void put_case(Writer& w, const GoldenCase& c) {
  w.str(c.kernel);
  w.str(c.name);
  w.str(c.dir);
  w.str(c.description);
  w.u32(c.dispatch.dispatch_threads);
  for (int i = 0; i < 3; ++i) {
    w.u32(c.dispatch.threadgroups[i]);
    w.u32(c.dispatch.threads_per_threadgroup[i]);
    w.u32(c.dispatch.grid_threads[i]);
  }
  w.u32(static_cast<uint32_t>(c.buffers.size()));
  for (const BufferSpec& b : c.buffers) {
    w.u32(static_cast<uint32_t>(b.index));
    w.u64(static_cast<uint64_t>(b.argument_buffer_offset));
    w.str(b.name);
    w.u32(static_cast<uint32_t>(b.access));
    w.str(b.data_path);
    w.str(b.expected_path);
    w.f64(b.atol);
    w.f64(b.rtol);
    w.str(b.tolerance_note);
    w.str(b.compare_as);
    w.str(b.dtype);
    w.u32(static_cast<uint32_t>(b.shape.size()));
    for (size_t d : b.shape) w.u64(d);
  }
  w.u32(static_cast<uint32_t>(c.threadgroup_memory.size()));
  for (const ThreadgroupMemorySpec& t : c.threadgroup_memory) {
    w.u32(static_cast<uint32_t>(t.index));
    w.u32(t.bytes);
  }
  w.str(c.capture_dir);
  w.u32(static_cast<uint32_t>(c.function_constants.size()));
  for (const auto& [key, value] : c.function_constants) {
    w.str(key);
    w.str(value);
  }
}

GoldenCase get_case(Reader& r) {
  GoldenCase c;
  c.kernel = r.str();
  c.name = r.str();
  c.dir = r.str();
  c.description = r.str();
  c.dispatch.dispatch_threads = r.u32() != 0;
  for (int i = 0; i < 3; ++i) {
    c.dispatch.threadgroups[i] = r.u32();
    c.dispatch.threads_per_threadgroup[i] = r.u32();
    c.dispatch.grid_threads[i] = r.u32();
  }
  for (uint32_t n = r.u32(), i = 0; i < n; ++i) {
    BufferSpec b;
    b.index = static_cast<int>(r.u32());
    b.argument_buffer_offset = static_cast<int64_t>(r.u64());
    b.name = r.str();
    b.access = static_cast<Access>(r.u32());
    b.data_path = r.str();
    b.expected_path = r.str();
    b.atol = r.f64();
    b.rtol = r.f64();
    b.tolerance_note = r.str();
    b.compare_as = r.str();
    b.dtype = r.str();
    for (uint32_t k = r.u32(), j = 0; j < k; ++j) b.shape.push_back(static_cast<size_t>(r.u64()));
    c.buffers.push_back(std::move(b));
  }
  for (uint32_t n = r.u32(), i = 0; i < n; ++i) {
    ThreadgroupMemorySpec t;
    t.index = static_cast<int>(r.u32());
    t.bytes = r.u32();
    c.threadgroup_memory.push_back(t);
  }
  c.capture_dir = r.str();
  for (uint32_t n = r.u32(), i = 0; i < n; ++i) {
    std::string key = r.str();
    c.function_constants[key] = r.str();
  }
  return c;
}

void put_result(Writer& w, const CaseResult& r) {
  w.str(r.status);
  w.f64(r.max_abs_err);
  w.f64(r.max_rel_err);
  w.str(r.message);
  w.f64(r.seconds);
  w.u32(static_cast<uint32_t>(r.failures.size()));
  for (const BufferFailure& f : r.failures) {
    w.u32(static_cast<uint32_t>(f.index));
    for (const std::string* x : {&f.buffer, &f.kind, &f.compare}) w.str(*x);
    w.u64(f.count);
    w.u64(f.elements);
    w.f64(f.atol);
    w.f64(f.rtol);
    w.u32(static_cast<uint32_t>(f.first_index.size()));
    for (size_t i = 0; i < f.first_index.size(); ++i) {
      w.u32(static_cast<uint32_t>(f.first_index[i].size()));
      for (size_t d : f.first_index[i]) w.u64(d);
      w.str(i < f.first_got.size() ? f.first_got[i] : "");
      w.str(i < f.first_expected.size() ? f.first_expected[i] : "");
    }
  }
  w.u32(static_cast<uint32_t>(r.findings.size()));
  for (const Finding& f : r.findings) {
    for (const std::string* s : {&f.kind, &f.file, &f.message, &f.note_file, &f.note, &f.kernel, &f.case_name})
      w.str(*s);
    for (int v : {f.line, f.col, f.note_line, f.note_col, f.cases}) w.u32(static_cast<uint32_t>(v));
  }
}

CaseResult get_result(Reader& r, const GoldenCase& c, const std::string& target) {
  CaseResult out = make_result(c, target);
  out.status = r.str();
  out.max_abs_err = r.f64();
  out.max_rel_err = r.f64();
  out.message = r.str();
  out.seconds = r.f64();
  for (uint32_t n = r.u32(), i = 0; i < n; ++i) {
    BufferFailure f;
    f.index = static_cast<int>(r.u32());
    for (std::string* x : {&f.buffer, &f.kind, &f.compare}) *x = r.str();
    f.count = static_cast<size_t>(r.u64());
    f.elements = static_cast<size_t>(r.u64());
    f.atol = r.f64();
    f.rtol = r.f64();
    for (uint32_t m = r.u32(), j = 0; j < m; ++j) {
      std::vector<size_t> idx;
      for (uint32_t k = r.u32(), d = 0; d < k; ++d) idx.push_back(static_cast<size_t>(r.u64()));
      f.first_index.push_back(std::move(idx));
      f.first_got.push_back(r.str());
      f.first_expected.push_back(r.str());
    }
    out.failures.push_back(std::move(f));
  }
  for (uint32_t n = r.u32(), i = 0; i < n; ++i) {
    Finding f;
    for (std::string* s : {&f.kind, &f.file, &f.message, &f.note_file, &f.note, &f.kernel, &f.case_name}) *s = r.str();
    for (int* v : {&f.line, &f.col, &f.note_line, &f.note_col, &f.cases}) *v = static_cast<int>(r.u32());
    out.findings.push_back(std::move(f));
  }
  return out;
}

// ---- Framing over a stream socket.

bool send_message(int fd, const std::string& payload) {
  std::string frame(4, '\0');
  uint32_t n = static_cast<uint32_t>(payload.size());
  std::memcpy(frame.data(), &n, 4);
  frame += payload;
  const char* p = frame.data();
  size_t left = frame.size();
  while (left > 0) {
    // MSG_NOSIGNAL: a dead peer is an error here, not a SIGPIPE.
    ssize_t k = ::send(fd, p, left, MSG_NOSIGNAL);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += k;
    left -= static_cast<size_t>(k);
  }
  return true;
}

enum class Received { Message, Closed, TimedOut };

using Clock = std::chrono::steady_clock;

// Reads exactly n bytes before `deadline` (none when unset).
Received read_exact(int fd, char* p, size_t n, const Clock::time_point* deadline) {
  while (n > 0) {
    int wait_ms = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) return Received::TimedOut;
      wait_ms = static_cast<int>(std::min<long long>(left, 60'000));
    }
    pollfd pf{fd, POLLIN, 0};
    int ready = ::poll(&pf, 1, wait_ms);
    if (ready < 0 && errno != EINTR) return Received::Closed;
    if (ready <= 0) continue;
    ssize_t k = ::recv(fd, p, n, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return Received::Closed;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return Received::Message;
}

// No message is anywhere near this; a larger length is a broken stream.
constexpr uint32_t kMaxMessage = 1u << 28;

Received receive_message(int fd, std::string* payload, double timeout_seconds) {
  Clock::time_point deadline;
  const Clock::time_point* dl = nullptr;
  if (timeout_seconds > 0) {
    deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
    dl = &deadline;
  }
  uint32_t n = 0;
  Received r = read_exact(fd, reinterpret_cast<char*>(&n), 4, dl);
  if (r != Received::Message) return r;
  if (n > kMaxMessage) return Received::Closed;
  payload->assign(n, '\0');
  return read_exact(fd, payload->data(), n, dl);
}

std::string death_text(int wstatus) {
  if (WIFSIGNALED(wstatus)) {
    int sig = WTERMSIG(wstatus);
    const char* d = strsignal(sig);
    return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
  }
  if (WIFEXITED(wstatus)) return "exit status " + std::to_string(WEXITSTATUS(wstatus));
  return "unknown status";
}

// ---- The worker.

[[noreturn]] void worker_main(int fd, const ExecutorFactory& make) {
  // Die of a crash's signal (no handler of the parent's, e.g. a sanitizer's,
  // turns it into an ordinary exit); never of a closed socket.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
  std::string error;
  std::unique_ptr<Executor> ex;
  try {
    ex = make(&error);
  } catch (const std::exception& e) {
    error = e.what();
  } catch (...) {
    error = "unknown exception while building";
  }
  Writer hello;
  hello.u32(ex != nullptr);
  if (ex) {
    hello.str(ex->target());
    hello.str(ex->device());
    std::vector<std::string> names = ex->kernel_names();
    hello.u32(static_cast<uint32_t>(names.size()));
    for (const auto& n : names) {
      hello.str(n);
      std::vector<HostSetConstant> fcs = ex->host_set_constants(n);
      hello.u32(static_cast<uint32_t>(fcs.size()));
      for (const auto& f : fcs) {
        hello.str(f.name);
        hello.u32(f.index);
        hello.str(f.type);
      }
    }
  } else {
    hello.str(error.empty() ? "the executor could not be built" : error);
  }
  send_message(fd, hello.bytes());
  if (!ex) ::_exit(0);
  std::string msg;
  while (receive_message(fd, &msg, 0) == Received::Message) {
    CaseResult r;
    GoldenCase c;
    try {
      Reader in(msg);
      c = get_case(in);
      r = ex->run(c);
    } catch (const std::exception& e) {
      r = error_result(c, ex->target(), std::string("exception: ") + e.what());
    } catch (...) {
      r = error_result(c, ex->target(), "unknown exception");
    }
    Writer out;
    put_result(out, r);
    std::fflush(stdout);
    std::fflush(stderr);
    if (!send_message(fd, out.bytes())) break;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(0);
}

class IsolatedExecutor;

// Workers alive at once, in the process: each holds a driver (PoCL starts a
// thread per core in it), so a check of many files keeps only the most
// recently used ones and stops the others, which start again (rebuild from
// the driver's cache) when their executor runs a case.
constexpr size_t kMaxLiveWorkers = 8;

class LiveWorkers {
 public:
  // `e` started or ran a case: it is the most recent; the least recent
  // beyond the limit are stopped.
  void touch(IsolatedExecutor* e);
  void forget(IsolatedExecutor* e) { order_.remove(e); }

 private:
  std::list<IsolatedExecutor*> order_;  // most recent first
};

LiveWorkers& live_workers() {
  static LiveWorkers w;
  return w;
}

class IsolatedExecutor : public Executor {
 public:
  explicit IsolatedExecutor(ExecutorFactory make) : make_(std::move(make)) {}
  ~IsolatedExecutor() override {
    live_workers().forget(this);
    stop(/*kill_now=*/false);
  }

  // Stops the worker if it runs (its next case starts a new one).
  void release() { stop(/*kill_now=*/false); }

  // Forks a worker and waits for its build.
  bool start(std::string* error) {
    live_workers().touch(this);
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      *error = std::string("socketpair: ") + std::strerror(errno);
      return false;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    pid_t pid = ::fork();
    if (pid < 0) {
      *error = std::string("fork: ") + std::strerror(errno);
      ::close(sv[0]);
      ::close(sv[1]);
      return false;
    }
    if (pid == 0) {
      ::close(sv[0]);
      // Only its own socket stays open: other workers' sockets must not
      // keep their peers from seeing end-of-file.
      int fd = sv[1];
      if (fd != 3) {
        ::dup2(fd, 3);
        ::close(fd);
      }
      ::close_range(4, ~0u, 0);
      worker_main(3, make_);
    }
    ::close(sv[1]);
    pid_ = pid;
    fd_ = sv[0];
    std::string hello;
    if (receive_message(fd_, &hello, 0) != Received::Message) {
      *error = "the worker process died while building (" + reap() + ")";
      return false;
    }
    try {
      Reader in(hello);
      if (!in.u32()) {
        *error = in.str();
        stop(false);
        return false;
      }
      std::string target = in.str();
      std::string device = in.str();
      std::set<std::string> names;
      std::map<std::string, std::vector<HostSetConstant>> host_set;
      for (uint32_t n = in.u32(), i = 0; i < n; ++i) {
        std::string name = in.str();
        names.insert(name);
        for (uint32_t m = in.u32(), j = 0; j < m; ++j) {
          HostSetConstant f;
          f.name = in.str();
          f.index = in.u32();
          f.type = in.str();
          host_set[name].push_back(f);
        }
      }
      if (target_.empty()) {
        target_ = target;
        device_ = device;
        kernels_ = names;
        host_set_ = host_set;
      }
    } catch (const std::exception& e) {
      *error = e.what();
      stop(true);
      return false;
    }
    return true;
  }

  std::string target() const override { return target_; }
  std::string device() const override { return device_; }
  bool has_kernel(const std::string& name) const override { return kernels_.count(name) > 0; }
  std::vector<std::string> kernel_names() const override { return {kernels_.begin(), kernels_.end()}; }
  std::vector<HostSetConstant> host_set_constants(const std::string& kernel) const override {
    auto it = host_set_.find(kernel);
    return it == host_set_.end() ? std::vector<HostSetConstant>{} : it->second;
  }

  CaseResult run(const GoldenCase& c) override {
    if (pid_ < 0) {
      std::string err;
      if (!start(&err)) return error_result(c, target_, "could not start a fresh worker process: " + err);
    }
    live_workers().touch(this);
    Writer w;
    put_case(w, c);
    std::string reply;
    Received got = send_message(fd_, w.bytes()) ? receive_message(fd_, &reply, case_timeout()) : Received::Closed;
    if (got == Received::TimedOut) {
      stop(/*kill_now=*/true);
      char secs[32];
      std::snprintf(secs, sizeof secs, "%g", case_timeout());
      return error_result(c, target_, std::string("timed out after ") + secs + " s (--case-timeout)");
    }
    if (got == Received::Closed) return error_result(c, target_, "kernel crashed: " + reap());
    try {
      Reader in(reply);
      return get_result(in, c, target_);
    } catch (const std::exception& e) {
      stop(true);
      return error_result(c, target_, e.what());
    }
  }

 private:
  // After the worker closed its end: collect its exit and say how it ended.
  std::string reap() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    int wstatus = 0;
    std::string text = "the worker process ended";
    if (pid_ > 0) {
      while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
      }
      text = death_text(wstatus);
    }
    pid_ = -1;
    return text;
  }

  void stop(bool kill_now) {
    if (pid_ < 0) return;
    if (kill_now) ::kill(pid_, SIGKILL);
    if (fd_ >= 0) ::close(fd_);  // the worker reads end-of-file and exits
    fd_ = -1;
    // A worker that does not leave within a few seconds of end-of-file is
    // stuck in its driver: it is killed.
    int wstatus = 0;
    for (int i = 0; i < 500; ++i) {
      pid_t w = ::waitpid(pid_, &wstatus, WNOHANG);
      if (w == pid_ || (w < 0 && errno != EINTR)) {
        pid_ = -1;
        return;
      }
      ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &wstatus, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  ExecutorFactory make_;
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string target_, device_;
  std::set<std::string> kernels_;
  std::map<std::string, std::vector<HostSetConstant>> host_set_;
};

void LiveWorkers::touch(IsolatedExecutor* e) {
  order_.remove(e);
  order_.push_front(e);
  while (order_.size() > kMaxLiveWorkers) {
    IsolatedExecutor* oldest = order_.back();
    order_.pop_back();
    oldest->release();
  }
}

}  // namespace

std::unique_ptr<Executor> make_isolated_executor(ExecutorFactory make, std::string* error) {
  std::string dummy;
  if (!error) error = &dummy;
  auto ex = std::make_unique<IsolatedExecutor>(std::move(make));
  if (!ex->start(error)) return nullptr;
  return ex;
}

}  // namespace mslport::runtime
