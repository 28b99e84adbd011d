// `mslport regen` and `mslport diff`: the targets/ tree is a pure function
// of the sources (Tint-style expectation files), regenerated all-or-nothing.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "commands.h"
#include "support/atomic_file.h"
#include "support/phase_times.h"

namespace fs = std::filesystem;

namespace mslport::tool {

namespace {

// Translates sources on all cores; libclang indices are per parse, so
// translations are independent.
std::vector<std::pair<bool, Translation>> translate_all(const std::vector<std::string>& sources,
                                                        const TranslateOptions& options,
                                                        std::vector<std::string>* diag_text) {
  std::vector<std::pair<bool, Translation>> out(sources.size());
  diag_text->assign(sources.size(), "");
  std::atomic<size_t> next{0}, done{0};
  bool tty = ::isatty(2);
  std::mutex mu;
  auto worker = [&]() {
    for (size_t i = next++; i < sources.size(); i = next++) {
      DiagEngine diags;
      out[i].first = translate_file(sources[i], Target::All, options, diags, &out[i].second);
      std::ostringstream os;
      diags.print_all(os);
      report_skipped(out[i].second, options, /*always=*/out[i].first, os);
      (*diag_text)[i] = os.str();
      size_t n = ++done;
      if (tty) {
        std::lock_guard<std::mutex> lock(mu);
        std::cerr << "\r[" << n << "/" << sources.size() << "] " << sources[i] << "\033[K" << std::flush;
      }
    }
  };
  unsigned n = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), (unsigned)sources.size()));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (tty && !sources.empty()) std::cerr << "\r\033[K";
  return out;
}

// target-relative path -> content, for every source; false if any failed.
bool render_targets(const std::vector<std::string>& sources, const TranslateOptions& options,
                    std::map<std::string, std::string>* files) {
  bool ok = true;
  std::map<std::string, std::string> stems;
  std::vector<std::string> diag_text;
  auto results = translate_all(sources, options, &diag_text);
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& src = sources[i];
    std::cerr << diag_text[i];
    auto& [good, t] = results[i];
    if (!good) {
      std::cerr << "mslport: error: " << src << " failed to translate\n";
      ok = false;
      continue;
    }
    if (stems.count(t.stem)) {
      std::cerr << "mslport: error: " << src << " and " << stems[t.stem] << " would both write '" << t.stem
                << ".*' in targets/\n";
      ok = false;
      continue;
    }
    stems[t.stem] = src;
    (*files)["openmp/" + t.stem + ".cpp"] = t.cpp;
    (*files)["openmp/" + t.stem + ".h"] = t.header;
    (*files)["opencl/" + t.stem + ".cl"] = t.cl;
    (*files)["opencl/" + t.stem + ".bindings.json"] = t.bindings;
  }
  return ok;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
  return buf;
}

// Identifies this translator build: the version and the executable itself,
// so a rebuilt translator never reuses stale outputs.
std::string self_hash() {
  std::string exe;
  read_file("/proc/self/exe", &exe);
  return std::string(kVersion) + "-" + hex64(fnv1a(exe));
}

std::map<std::string, std::string> read_stamps(const std::string& path) {
  std::map<std::string, std::string> m;
  std::string text;
  if (!read_file(path, &text)) return m;
  std::istringstream in(text);
  std::string stamp, src;
  while (in >> stamp && std::getline(in >> std::ws, src)) m[src] = stamp;
  return m;
}

}  // namespace

namespace {
// The --time-report table: phases summed over the translating threads.
void print_time_report(double wall, double cpu, size_t translated) {
  std::vector<PhaseTime> phases = phase_times();
  double total = 0, clang = 0;
  for (auto& p : phases) {
    total += p.seconds;
    if (p.phase.rfind("libclang", 0) == 0) clang += p.seconds;
  }
  std::fprintf(stderr, "time report (%zu files translated; seconds summed over threads):\n", translated);
  for (auto& p : phases)
    std::fprintf(stderr, "  %-42s %8.3f s  %5.1f%%  (%d calls)\n", p.phase.c_str(), p.seconds,
                 total > 0 ? 100.0 * p.seconds / total : 0.0, p.count);
  std::fprintf(stderr, "  %-42s %8.3f s\n", "translator, beyond libclang", total - clang);
  std::fprintf(stderr, "  %-42s %8.3f s\n", "libclang", clang);
  std::fprintf(stderr, "  %-42s %8.3f s wall, %.3f s CPU\n", "whole command", wall, cpu);
}
}  // namespace

// The flags that change what a translation writes, for the stamps.
std::string translation_flags(const TranslateOptions& o) {
  std::string s = o.line_directives ? "+line" : "";
  for (auto& d : o.parse.include_dirs) s += " -I" + d;
  for (auto& d : o.parse.defines) s += " -D" + d;
  for (auto& u : o.parse.undefines) s += " -U" + u;
  for (auto& [k, v] : o.parse.function_constants) s += " -F" + k + "=" + v;
  for (auto& k : o.kernels) s += " -k" + k;
  return s + (o.werror ? " -Werror" : "");
}

int run_regen(const std::vector<std::string>& paths, const std::string& targets_dir, const TranslateOptions& options,
              bool time_report, bool force) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  // Skip sources whose content, translator binary and flags are as at the
  // last regen and whose outputs are all still there.
  fs::path stamp_path = fs::path(targets_dir) / ".regen-stamps";
  std::map<std::string, std::string> old_stamps = read_stamps(stamp_path.string()), new_stamps;
  std::string tool_id = self_hash() + translation_flags(options);
  std::vector<std::string> todo;
  int skipped = 0;
  for (auto& src : sources) {
    std::string content;
    read_file(src, &content);
    std::string stamp = hex64(fnv1a(content + "\n" + tool_id));
    new_stamps[src] = stamp;
    std::string stem = fs::path(src).stem().string();
    bool outputs = true;
    for (auto rel : {"openmp/" + stem + ".cpp", "openmp/" + stem + ".h", "opencl/" + stem + ".cl",
                     "opencl/" + stem + ".bindings.json"})
      outputs = outputs && fs::exists(fs::path(targets_dir) / rel);
    if (!force && outputs && old_stamps.count(src) && old_stamps[src] == stamp) ++skipped;
    else todo.push_back(src);
  }
  std::map<std::string, std::string> files;
  if (!render_targets(todo, options, &files)) {
    std::cerr << "mslport: error: nothing written to " << targets_dir << "/ (fix the errors above)\n";
    return 1;
  }
  // The changed targets and the stamps, all or none.
  std::vector<std::pair<std::string, std::string>> changed;
  int unchanged = 0;
  for (auto& [rel, content] : files) {
    fs::path p = fs::path(targets_dir) / rel;
    fs::create_directories(p.parent_path());
    std::string old;
    if (read_file(p.string(), &old) && old == content) ++unchanged;
    else changed.emplace_back(p.string(), content);
  }
  const int written = static_cast<int>(changed.size());
  std::string stamps;
  for (auto& [src, stamp] : new_stamps) stamps += stamp + " " + src + "\n";
  changed.emplace_back(stamp_path.string(), stamps);
  if (!write_files_atomic(changed, &err)) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  std::cerr << "mslport regen: " << sources.size() << " sources (" << skipped << " unchanged, skipped), " << written
            << " files written, " << unchanged << " files unchanged\n";
  if (time_report)
    print_time_report(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(),
                      double(std::clock() - cpu_start) / CLOCKS_PER_SEC, todo.size());
  return 0;
}

int run_diff(const std::vector<std::string>& paths, const std::string& targets_dir, const TranslateOptions& options) {
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    std::cerr << "mslport: error: " << err << "\n";
    return 1;
  }
  std::map<std::string, std::string> files;
  TranslateOptions plain = options;
  plain.line_directives = false;
  if (!render_targets(sources, plain, &files)) return 1;
  int drifted = 0;
  fs::path tmpdir = fs::temp_directory_path() / ("mslport-diff-" + std::to_string(::getpid()));
  fs::create_directories(tmpdir);
  for (auto& [rel, content] : files) {
    fs::path committed = fs::path(targets_dir) / rel;
    std::string old;
    if (read_file(committed.string(), &old) && old == content) continue;
    ++drifted;
    fs::path fresh = tmpdir / fs::path(rel).filename();
    write_file_atomic(fresh.string(), content, &err);
    std::string cmd = "diff -u --label '" + committed.string() + " (committed)' --label '" + committed.string() +
                      " (regenerated)' '" + (fs::exists(committed) ? committed.string() : std::string("/dev/null")) +
                      "' '" + fresh.string() + "'";
    std::fflush(stdout);
    int rc = std::system(cmd.c_str());
    (void)rc;
  }
  fs::remove_all(tmpdir);
  if (drifted) {
    std::cerr << "mslport diff: " << drifted << " file(s) in " << targets_dir
              << "/ differ from what `mslport regen` would write\n";
    return 1;
  }
  std::cerr << "mslport diff: " << files.size() << " files up to date\n";
  return 0;
}

}  // namespace mslport::tool
