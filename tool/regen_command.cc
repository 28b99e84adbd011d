// `mslport regen` and `mslport diff`: the targets/ tree is a pure function
// of the sources (Tint-style expectation files), regenerated all-or-nothing.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "commands.h"
#include "regen_manifest.h"
#include "support/atomic_file.h"
#include "support/file_transaction.h"
#include "support/phase_times.h"
#include "support/unified_diff.h"

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

// The four files regen writes for a source of this stem, targets-relative.
std::vector<std::string> output_paths(const std::string& stem) {
  return {"openmp/" + stem + ".cpp", "openmp/" + stem + ".h", "opencl/" + stem + ".cl",
          "opencl/" + stem + ".bindings.json"};
}

// Every file in targets_dir that looks like a regen output (the patterns of
// output_paths), targets-relative. Anything else there is left alone.
std::set<std::string> existing_outputs(const std::string& targets_dir) {
  std::set<std::string> out;
  for (const char* sub : {"openmp", "opencl"}) {
    std::error_code ec;
    fs::path d = fs::path(targets_dir) / sub;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (name.empty() || name[0] == '.' || !it->is_regular_file(ec)) continue;
      auto ends = [&](const std::string& suffix) {
        return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
      };
      bool ours = std::string(sub) == "openmp" ? ends(".cpp") || ends(".h") : ends(".cl") || ends(".bindings.json");
      if (ours) out.insert(std::string(sub) + "/" + name);
    }
  }
  return out;
}

// target-relative path -> content, for every source; false if any failed.
// `by_source` (optional) gets each source's four paths.
bool render_targets(const std::vector<std::string>& sources, const TranslateOptions& options,
                    std::map<std::string, std::string>* files,
                    std::map<std::string, std::vector<std::string>>* by_source = nullptr) {
  bool ok = true;
  std::map<std::string, std::string> stems;
  std::vector<std::string> diag_text;
  auto results = translate_all(sources, options, &diag_text);
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::string& src = sources[i];
    std::cerr << diag_text[i];
    auto& [good, t] = results[i];
    if (!good) {
      ToolMessage(Severity::Error) << src << " failed to translate";
      ok = false;
      continue;
    }
    if (stems.count(t.stem)) {
      ToolMessage(Severity::Error) << src << " and " << stems[t.stem] << " would both write '" << t.stem
                                   << ".*' in targets/";
      ok = false;
      continue;
    }
    stems[t.stem] = src;
    const auto paths = output_paths(t.stem);
    (*files)[paths[0]] = t.cpp;
    (*files)[paths[1]] = t.header;
    (*files)[paths[2]] = t.cl;
    (*files)[paths[3]] = t.bindings;
    if (by_source) (*by_source)[src] = paths;
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
  for (auto& m : o.parse.macros) s += " " + m.arg();
  for (auto& [k, v] : o.parse.function_constants) s += " -F" + k + "=" + v;
  for (auto& k : o.kernels) s += " -k" + k;
  return s + (o.werror ? " -Werror" : "");
}

namespace {

// Creates targets_dir if needed; false (after saying why) if it cannot be
// the root of a targets tree.
bool prepare_targets_dir(const std::string& targets_dir, const char* command) {
  std::error_code ec;
  if (fs::exists(targets_dir, ec) && !fs::is_directory(targets_dir, ec)) {
    ToolMessage(Severity::Error, std::string("mslport ") + command)
        << "--targets '" << targets_dir << "' is not a directory";
    return false;
  }
  for (const fs::path& dir :
       {fs::path(targets_dir), fs::path(targets_dir) / "openmp", fs::path(targets_dir) / "opencl"}) {
    fs::create_directories(dir, ec);
    if (ec) {
      ToolMessage(Severity::Error, std::string("mslport ") + command)
          << "cannot create '" << dir.string() << "': " << ec.message();
      return false;
    }
  }
  return true;
}

// Finishes what an interrupted regen left (its journal, stray temporaries)
// and says so. false after printing why it could not.
bool recover_targets(const std::string& targets_dir, const char* command) {
  RecoveryReport report;
  std::string err;
  if (!recover_file_transaction(
          targets_dir, {(fs::path(targets_dir) / "openmp").string(), (fs::path(targets_dir) / "opencl").string()},
          &report, &err)) {
    ToolMessage(Severity::Error, std::string("mslport ") + command) << err;
    return false;
  }
  if (report.completed)
    std::cerr << "mslport " << command << ": completed an interrupted regen of " << targets_dir << "/ ("
              << report.completed << " renames and removals)\n";
  if (report.temporaries_removed)
    std::cerr << "mslport " << command << ": removed " << report.temporaries_removed
              << " temporary file(s) an interrupted regen left in " << targets_dir << "/\n";
  return true;
}

}  // namespace

int run_regen(const std::vector<std::string>& paths, const std::string& targets_dir, const TranslateOptions& options,
              bool time_report, bool force) {
  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  if (sources.empty()) {
    std::string list;
    for (auto& p : paths) list += " " + p;
    ToolMessage(Severity::Error, "mslport regen") << "no .metal files in" << list;
    return 1;
  }
  if (!prepare_targets_dir(targets_dir, "regen") || !recover_targets(targets_dir, "regen")) return 1;

  // Skip a source whose content, translator binary and flags are as at the
  // last regen and whose four outputs still hold what that regen wrote.
  RegenManifest old_manifest = read_manifest(targets_dir), new_manifest;
  std::string tool_id = self_hash() + translation_flags(options);
  std::vector<std::string> todo;
  std::set<std::string> kept;  // outputs of skipped sources
  int skipped = 0;
  for (auto& src : sources) {
    std::string content;
    if (!read_file(src, &content)) {
      todo.push_back(src);  // translating it reports why it cannot be read
      continue;
    }
    std::string stamp = hex64(fnv1a(content + "\n" + tool_id));
    auto old = old_manifest.find(src);
    bool intact = !force && old != old_manifest.end() && old->second.stamp == stamp && !old->second.outputs.empty();
    if (intact) {
      for (auto& [rel, hash] : old->second.outputs) {
        std::string now;
        intact = intact && read_file((fs::path(targets_dir) / rel).string(), &now) && content_hash(now) == hash;
      }
    }
    if (intact) {
      ++skipped;
      new_manifest[src] = old->second;
      for (auto& [rel, hash] : old->second.outputs) kept.insert(rel);
    } else {
      new_manifest[src].stamp = stamp;
      todo.push_back(src);
    }
  }
  std::map<std::string, std::string> files;
  std::map<std::string, std::vector<std::string>> by_source;
  if (!render_targets(todo, options, &files, &by_source)) {
    ToolMessage(Severity::Error) << "nothing written to " << targets_dir << "/ (fix the errors above)";
    return 1;
  }
  for (auto& [src, rels] : by_source) {
    new_manifest[src].outputs.clear();
    for (auto& rel : rels) new_manifest[src].outputs[rel] = content_hash(files[rel]);
  }
  for (const auto& rel : kept) {
    if (files.count(rel)) {
      ToolMessage(Severity::Error) << "two sources would both write '" << rel << "' in " << targets_dir << "/";
      return 1;
    }
  }
  // The changed targets, the stale ones removed, and the manifest: all or
  // none, across a crash too (support/file_transaction.h).
  FileTransaction tx(targets_dir);
  int unchanged = 0, written = 0;
  for (auto& [rel, content] : files) {
    fs::path p = fs::path(targets_dir) / rel;
    std::string old;
    if (read_file(p.string(), &old) && old == content) {
      ++unchanged;
    } else {
      tx.write(p.string(), content);
      ++written;
    }
  }
  std::vector<std::string> stale;
  for (const auto& rel : existing_outputs(targets_dir))
    if (!files.count(rel) && !kept.count(rel)) {
      stale.push_back(rel);
      tx.remove((fs::path(targets_dir) / rel).string());
    }
  tx.write(manifest_path(targets_dir), format_manifest(new_manifest));
  if (!tx.commit(&err)) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  for (const auto& rel : stale)
    std::cerr << "mslport regen: removed " << (fs::path(targets_dir) / rel).string() << " (no source writes it)\n";
  std::cerr << "mslport regen: " << sources.size() << " sources (" << skipped << " unchanged, skipped), " << written
            << " files written, " << unchanged << " files unchanged, " << stale.size() << " stale files removed\n";
  if (time_report)
    print_time_report(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count(),
                      double(std::clock() - cpu_start) / CLOCKS_PER_SEC, todo.size());
  return 0;
}

int run_diff(const std::vector<std::string>& paths, const std::string& targets_dir, const TranslateOptions& options) {
  std::string err;
  auto sources = expand_sources(paths, &err);
  if (!err.empty()) {
    ToolMessage(Severity::Error) << err;
    return 1;
  }
  if (sources.empty()) {
    std::string list;
    for (auto& p : paths) list += " " + p;
    ToolMessage(Severity::Error, "mslport diff") << "no .metal files in" << list;
    return 1;
  }
  std::error_code ec;
  if (fs::exists(targets_dir, ec) && !fs::is_directory(targets_dir, ec)) {
    ToolMessage(Severity::Error, "mslport diff") << "--targets '" << targets_dir << "' is not a directory";
    return 1;
  }
  // A regen that died after its commit point is completed first: the tree
  // is then the set that regen meant to write.
  if (fs::is_directory(targets_dir, ec) && !recover_targets(targets_dir, "diff")) return 1;
  std::map<std::string, std::string> files;
  TranslateOptions plain = options;
  plain.line_directives = false;
  if (!render_targets(sources, plain, &files)) return 1;
  int drifted = 0;
  std::fflush(stdout);
  for (auto& [rel, content] : files) {
    fs::path committed = fs::path(targets_dir) / rel;
    std::string old;
    bool exists = read_file(committed.string(), &old);
    if (exists && old == content) continue;
    ++drifted;
    std::cout << unified_diff(old, content, exists ? committed.string() + " (committed)" : "/dev/null",
                              committed.string() + " (regenerated)");
  }
  std::vector<std::string> stale;
  for (const auto& rel : existing_outputs(targets_dir))
    if (!files.count(rel)) stale.push_back(rel);
  for (const auto& rel : stale) {
    fs::path committed = fs::path(targets_dir) / rel;
    std::string old;
    read_file(committed.string(), &old);
    std::cout << unified_diff(old, "", committed.string() + " (committed)", "/dev/null (no source writes it)");
  }
  std::cout.flush();
  if (drifted || !stale.empty()) {
    if (drifted)
      std::cerr << "mslport diff: " << drifted << " file(s) in " << targets_dir
                << "/ differ from what `mslport regen` would write\n";
    for (const auto& rel : stale)
      std::cerr << "mslport diff: stale: " << (fs::path(targets_dir) / rel).string()
                << " (no source writes it; `mslport regen` removes it)\n";
    return 1;
  }
  std::cerr << "mslport diff: " << files.size() << " files up to date\n";
  return 0;
}

}  // namespace mslport::tool
