#include "support/project_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>

#include "support/regular_file.h"

// toml++ as a header-only library: the one file that parses TOML, and no
// run-time library for the tool to carry.
#define TOML_HEADER_ONLY 1
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

namespace fs = std::filesystem;

namespace mslport {

namespace {

ir::SourceLoc loc_of(const std::string& path, const toml::source_region& r) {
  return ir::SourceLoc{path, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
}

std::string absolute_in(const std::string& dir, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = fs::path(dir) / path;
  return path.lexically_normal().string();
}

class Reader {
 public:
  Reader(std::string path, DiagEngine& diags) : path_(std::move(path)), diags_(diags) {}

  void error(const toml::node& n, const std::string& msg) { diags_.error(loc_of(path_, n.source()), msg); }

  std::optional<std::string> string(const toml::node& n, const std::string& key) {
    if (auto s = n.value<std::string>(); s && n.is_string()) return *s;
    error(n, "'" + key + "' must be a string");
    return std::nullopt;
  }

  std::vector<std::string> strings(const toml::node& n, const std::string& key) {
    std::vector<std::string> out;
    const toml::array* a = n.as_array();
    if (!a) {
      error(n, "'" + key + "' must be an array of strings, e.g. " + key + " = [\"...\"]");
      return out;
    }
    for (const toml::node& e : *a) {
      if (!e.is_string()) {
        error(e, "'" + key + "' must be an array of strings");
        continue;
      }
      std::string s = *e.value<std::string>();
      if (s.empty()) error(e, "'" + key + "' has an empty string");
      else out.push_back(s);
    }
    return out;
  }

  // true / false / integer / float / string -> the C++ literal.
  std::optional<std::string> constant(const toml::node& n, const std::string& name) {
    if (auto b = n.as_boolean()) return b->get() ? "true" : "false";
    if (auto i = n.as_integer()) return std::to_string(i->get());
    if (auto f = n.as_floating_point()) {
      double d = f->get();
      if (!std::isfinite(d)) {
        error(n, "function constant '" + name + "' must be finite");
        return std::nullopt;
      }
      std::ostringstream os;
      os.precision(17);
      os << d;
      std::string text = os.str();
      if (text.find_first_of(".eE") == std::string::npos) text += ".0";
      return text;
    }
    if (auto s = n.as_string()) {
      if (s->get().empty()) {
        error(n, "function constant '" + name + "' is an empty string");
        return std::nullopt;
      }
      return s->get();
    }
    error(n, "function constant '" + name + "' must be true, false, a number or a string");
    return std::nullopt;
  }

 private:
  std::string path_;
  DiagEngine& diags_;
};

bool is_identifier_or_index(const std::string& name) {
  if (name.empty()) return false;
  if (std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) return true;
  if (name[0] >= '0' && name[0] <= '9') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool has_glob(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

std::vector<std::string> split_components(const std::string& p) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : p) {
    if (c == '/') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// `*` and `?` within one component.
bool match_component(const char* p, const char* s) {
  const char* star = nullptr;
  const char* resume = nullptr;
  while (*s) {
    if (*p == '?' || (*p && *p != '*' && *p == *s)) {
      ++p;
      ++s;
    } else if (*p == '*') {
      star = p++;
      resume = s;
    } else if (star) {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (*p == '*') ++p;
  return *p == 0;
}

bool match_from(const std::vector<std::string>& pat, size_t i, const std::vector<std::string>& path, size_t j) {
  if (i == pat.size()) return j == path.size();
  if (pat[i] == "**") {
    for (size_t k = j; k <= path.size(); ++k)
      if (match_from(pat, i + 1, path, k)) return true;
    return false;
  }
  if (j == path.size()) return false;
  return match_component(pat[i].c_str(), path[j].c_str()) && match_from(pat, i + 1, path, j + 1);
}

void metal_files_under(const fs::path& dir, std::vector<fs::path>* out, std::error_code& ec) {
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".metal") out->push_back(it->path());
}

}  // namespace

std::optional<ProjectFile> parse_project_file(const std::string& path, const std::string& text, DiagEngine& diags) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    diags.error(loc_of(path, e.source()), std::string(e.description()));
    return std::nullopt;
  }
  ProjectFile p;
  p.path = path;
  std::error_code ec;
  p.dir = fs::absolute(fs::path(path), ec).parent_path().lexically_normal().string();
  Reader r(path, diags);
  const int errors_before = diags.error_count();
  for (auto&& [k, node] : root) {
    const std::string key(k.str());
    if (key == "sources") {
      p.sources = r.strings(node, key);
    } else if (key == "include_dirs") {
      for (auto& d : r.strings(node, key)) p.include_dirs.push_back(absolute_in(p.dir, d));
    } else if (key == "defines") {
      p.defines = r.strings(node, key);
    } else if (key == "undefines") {
      p.undefines = r.strings(node, key);
    } else if (key == "werror") {
      if (auto b = node.as_boolean()) p.werror = b->get();
      else r.error(node, "'werror' must be true or false");
    } else if (key == "targets" || key == "golden") {
      if (auto s = r.string(node, key)) {
        if (s->empty()) r.error(node, "'" + key + "' must not be empty");
        else (key == "targets" ? p.targets_dir : p.golden_dir) = absolute_in(p.dir, *s);
      }
    } else if (key == "platform") {
      if (auto s = r.string(node, key)) p.platform = *s;
    } else if (key == "function_constants") {
      const toml::table* t = node.as_table();
      if (!t) {
        r.error(node, "'function_constants' must be a table: [function_constants] then NAME = VALUE lines");
        continue;
      }
      for (auto&& [name_key, value] : *t) {
        std::string name(name_key.str());
        if (!is_identifier_or_index(name)) {
          diags.error(loc_of(path, name_key.source()),
                      "function constant '" + name + "': a function constant is named by an identifier or an index");
          continue;
        }
        if (auto v = r.constant(value, name)) p.function_constants[name] = *v;
      }
    } else {
      diags.error(loc_of(path, k.source()),
                  "unknown key '" + key +
                      "' (known: sources, include_dirs, defines, undefines, werror, function_constants, targets, "
                      "golden, platform)");
    }
  }
  if (diags.error_count() != errors_before) return std::nullopt;
  return p;
}

std::optional<ProjectFile> load_project_file(const std::string& path, DiagEngine& diags) {
  std::string text, why;
  if (!read_regular_file(path, kMaxProjectFileBytes, &text, &why)) {
    diags.error(ir::SourceLoc{path, 0, 0}, why);
    return std::nullopt;
  }
  return parse_project_file(path, text, diags);
}

std::string find_project_file(const std::string& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(fs::path(start), ec).lexically_normal();
  if (ec) return "";
  while (true) {
    fs::path cand = dir / kProjectFileName;
    if (fs::is_regular_file(cand, ec)) return cand.string();
    if (!dir.has_relative_path() || dir.parent_path() == dir) return "";
    dir = dir.parent_path();
  }
}

bool glob_match(const std::string& pattern, const std::string& path) {
  return match_from(split_components(pattern), 0, split_components(path), 0);
}

std::string path_inside(const std::string& path, const std::string& dir) {
  fs::path rel = fs::path(path).lexically_normal().lexically_relative(fs::path(dir).lexically_normal());
  if (rel.empty()) return path;
  auto first = rel.begin();
  if (first != rel.end() && first->string() == "..") return path;
  return rel.string();
}

std::vector<std::string> expand_source_patterns(const std::vector<std::string>& patterns, const std::string& base,
                                                const std::string& relative_to, std::string* error) {
  std::error_code ec;
  const std::string rel_dir = fs::absolute(fs::path(relative_to), ec).lexically_normal().string();
  std::set<std::string> seen;
  std::vector<std::string> out;
  auto add = [&](const fs::path& abs) {
    std::string s = path_inside(abs.lexically_normal().string(), rel_dir);
    if (seen.insert(s).second) out.push_back(s);
  };
  for (const std::string& pattern : patterns) {
    const std::string abs = absolute_in(fs::absolute(fs::path(base), ec).string(), pattern);
    std::vector<fs::path> found;
    if (!has_glob(pattern)) {
      if (fs::is_directory(abs, ec)) {
        metal_files_under(abs, &found, ec);
        if (ec) {
          *error = pattern + ": cannot list: " + ec.message();
          return {};
        }
        if (found.empty()) {
          *error = "sources: '" + pattern + "' holds no .metal file";
          return {};
        }
      } else if (fs::exists(abs, ec)) {
        found.push_back(abs);
      } else {
        *error = "sources: '" + pattern + "': no such file or directory";
        return {};
      }
    } else {
      // Walk from the longest folder prefix without a glob character.
      std::vector<std::string> comps = split_components(abs);
      fs::path root = "/";
      size_t i = 0;
      for (; i + 1 < comps.size() && !has_glob(comps[i]); ++i) root /= comps[i];
      if (fs::is_directory(root, ec)) {
        for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
          if (!it->is_regular_file(ec)) continue;
          if (glob_match(abs, it->path().string())) found.push_back(it->path());
        }
        if (ec) {
          *error = pattern + ": cannot list " + root.string() + ": " + ec.message();
          return {};
        }
      }
      if (found.empty()) {
        *error = "sources: '" + pattern + "' matches no file";
        return {};
      }
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) add(f);
  }
  return out;
}

}  // namespace mslport
