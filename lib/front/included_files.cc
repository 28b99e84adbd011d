#include "front/included_files.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>

#include "support/regular_file.h"

namespace mslport::front {

namespace {

// All files of one parse together; a header tree larger than this is not
// a kernel's.
constexpr size_t kMaxTotalBytes = size_t{256} << 20;

struct Directive {
  int line = 0, col = 0;
  std::string keyword;  // include, include_next, import, embed, define
  std::string name;     // the file name, or for define the macro's name
  char delimiter = 0;   // '"' or '<' when the operand is a literal name
  std::string rest;     // a computed operand; for define the body
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The preprocessing directives of `text`: lines that start with # (or %:)
// outside comments and literals, after backslash-newlines are joined.
class DirectiveScanner {
 public:
  explicit DirectiveScanner(const std::string& raw) {
    // Phase 2 of translation: a backslash-newline joins two lines; each
    // kept character remembers its physical line and column.
    int line = 1, col = 1;
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '\n') {
        ++i;
        ++line;
        col = 1;
        continue;
      }
      if (raw[i] == '\\' && i + 2 < raw.size() && raw[i + 1] == '\r' && raw[i + 2] == '\n') {
        i += 2;
        ++line;
        col = 1;
        continue;
      }
      s_.push_back(raw[i]);
      lines_.push_back(line);
      cols_.push_back(col);
      if (raw[i] == '\n') ++line, col = 1;
      else ++col;
    }
  }

  std::vector<Directive> scan() {
    std::vector<Directive> out;
    bool line_start = true;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        line_start = true;
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (starts("/*")) {
        skip_block_comment();
      } else if (starts("//")) {
        skip_to_newline();
      } else if (line_start && (c == '#' || starts("%:"))) {
        Directive d;
        d.line = lines_[i_];
        d.col = cols_[i_];
        i_ += c == '#' ? 1 : 2;
        if (read_directive(&d)) out.push_back(std::move(d));
        skip_to_newline();
        line_start = false;
      } else {
        line_start = false;
        if (c == '"' || c == '\'') skip_quoted(c);
        else if (c == 'R' && i_ + 1 < s_.size() && s_[i_ + 1] == '"' &&
                 (i_ == 0 || !ident_char(s_[i_ - 1]) || raw_prefix()))
          skip_raw_string();
        else ++i_;
      }
    }
    return out;
  }

 private:
  bool starts(const char* t) const { return s_.compare(i_, std::strlen(t), t) == 0; }
  // u8R"(...)", uR, UR, LR: the R of a raw string after an encoding prefix.
  bool raw_prefix() const {
    size_t b = i_;
    while (b > 0 && ident_char(s_[b - 1])) --b;
    std::string p = s_.substr(b, i_ - b);
    return (p == "u8" || p == "u" || p == "U" || p == "L") && (b == 0 || !ident_char(s_[b - 1]));
  }
  void skip_to_newline() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (starts("/*")) skip_block_comment();  // a block comment may end on a later line
      else ++i_;
    }
  }
  void skip_block_comment() {
    size_t e = s_.find("*/", i_ + 2);
    i_ = e == std::string::npos ? s_.size() : e + 2;
  }
  void skip_quoted(char q) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != q && s_[i_] != '\n') i_ += s_[i_] == '\\' ? 2 : 1;
    if (i_ < s_.size() && s_[i_] == q) ++i_;
  }
  void skip_raw_string() {
    size_t open = s_.find('(', i_ + 2);
    if (open == std::string::npos || open - (i_ + 2) > 16) {
      i_ += 2;
      return;
    }
    std::string close = ")" + s_.substr(i_ + 2, open - (i_ + 2)) + "\"";
    size_t e = s_.find(close, open + 1);
    i_ = e == std::string::npos ? s_.size() : e + close.size();
  }
  // Spaces and comments within a directive's line.
  void skip_space() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\f' || s_[i_] == '\v') ++i_;
      else if (starts("/*")) skip_block_comment();
      else break;
    }
  }
  std::string identifier() {
    size_t b = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    return s_.substr(b, i_ - b);
  }
  // The rest of the directive's line, comments removed.
  std::string rest_of_line() {
    std::string r;
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (starts("//")) break;
      if (starts("/*")) {
        skip_block_comment();
        r += ' ';
        continue;
      }
      r += s_[i_++];
    }
    while (!r.empty() && std::isspace(static_cast<unsigned char>(r.back()))) r.pop_back();
    return r;
  }

  bool read_directive(Directive* d) {
    skip_space();
    d->keyword = identifier();
    if (d->keyword == "define") {
      skip_space();
      d->name = identifier();
      if (d->name.empty() || (i_ < s_.size() && s_[i_] == '(')) return false;  // function-like: never a file name
      skip_space();
      d->rest = rest_of_line();
      return true;
    }
    if (d->keyword != "include" && d->keyword != "include_next" && d->keyword != "import" && d->keyword != "embed")
      return false;
    skip_space();
    if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '<')) {
      char close = s_[i_] == '"' ? '"' : '>';
      size_t e = s_.find(close, i_ + 1);
      size_t nl = s_.find('\n', i_ + 1);
      if (e != std::string::npos && (nl == std::string::npos || e < nl)) {
        d->delimiter = s_[i_];
        d->name = s_.substr(i_ + 1, e - i_ - 1);
        i_ = e + 1;
        return true;
      }
    }
    d->rest = rest_of_line();
    return true;
  }

  std::string s_;
  std::vector<int> lines_, cols_;
  size_t i_ = 0;
};

std::string dir_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A define's body as a file name: "name" or <name>.
bool literal_name(const std::string& body, std::string* name, char* delimiter) {
  if (body.size() >= 2 &&
      ((body.front() == '"' && body.back() == '"') || (body.front() == '<' && body.back() == '>'))) {
    *name = body.substr(1, body.size() - 2);
    *delimiter = body.front();
    return name->find_first_of("\"<>") == std::string::npos;
  }
  return false;
}

class IncludeReader {
 public:
  IncludeReader(const IncludeSearch& search, std::vector<IncludedFile>* files, DiagEngine& diags)
      : search_(search), files_(files), diags_(diags) {
    for (const auto& [name, value] : search.defines) {
      std::string n;
      char d;
      if (literal_name(value, &n, &d)) defines_[name] = value;
    }
  }

  bool read(const std::string& main_path, const std::string& main_text) {
    struct stat st;
    if (::stat(main_path.c_str(), &st) == 0) seen_.insert({st.st_dev, st.st_ino});
    // Files already in the list were read (and scanned) by an earlier call.
    size_t first_new = files_->size();
    for (const auto& f : *files_)
      if (::stat(f.path.c_str(), &st) == 0) seen_.insert({st.st_dev, st.st_ino});
    scan(main_path, main_text);
    // Files are appended while the list is walked: breadth-first.
    for (size_t i = first_new; i < files_->size(); ++i) {
      std::string path = (*files_)[i].path, text = (*files_)[i].text;
      scan(path, text);
    }
    return ok_;
  }

 private:
  void error(const std::string& file, const Directive& d, const std::string& msg) {
    diags_.error(ir::SourceLoc{file, d.line, d.col}, msg);
    ok_ = false;
  }

  void scan(const std::string& path, const std::string& text) {
    std::vector<Directive> directives = DirectiveScanner(text).scan();
    for (const auto& d : directives) {
      if (d.keyword != "define") continue;
      std::string n;
      char delim;
      if (literal_name(d.rest, &n, &delim)) defines_[d.name] = d.rest;
    }
    for (const auto& d : directives) {
      if (d.keyword == "define") continue;
      std::string name = d.name;
      char delimiter = d.delimiter;
      if (!delimiter) {
        auto it = defines_.find(d.rest);
        if (it == defines_.end() || !literal_name(it->second, &name, &delimiter)) {
          error(path, d,
                "#" + d.keyword + " with a computed file name ('" + d.rest +
                    "') is not supported: name the file in the directive, or through a macro defined as \"file\" "
                    "or <file>");
          continue;
        }
      }
      include(path, d, name, delimiter == '"');
    }
  }

  // Resolves `name` as clang would and reads the file it finds.
  void include(const std::string& includer, const Directive& d, const std::string& name, bool quoted) {
    std::vector<std::string> candidates;
    if (!name.empty() && name[0] == '/') {
      candidates.push_back(name);
    } else {
      if (quoted) {
        candidates.push_back(dir_of(includer) + "/" + name);
        for (const auto& q : search_.quote_dirs) candidates.push_back(q + "/" + name);
      }
      for (const auto& dir : search_.dirs) candidates.push_back(dir + "/" + name);
    }
    for (const auto& c : candidates) {
      struct stat st;
      if (::stat(c.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) continue;  // clang searches on
      if (!seen_.insert({st.st_dev, st.st_ino}).second) return;          // read already
      IncludedFile f;
      f.path = c;
      std::string why;
      if (!read_regular_file(c, kMaxIncludedFileBytes, &f.text, &why)) {
        error(includer, d, "cannot #" + d.keyword + " '" + name + "': " + why);
        return;
      }
      total_ += f.text.size();
      if (total_ > kMaxTotalBytes) {
        error(includer, d,
              "cannot #" + d.keyword + " '" + name + "': the included files exceed " + byte_size_text(kMaxTotalBytes) +
                  " together");
        return;
      }
      files_->push_back(std::move(f));
      return;
    }
    // Nothing found: clang reports it if the directive is live.
  }

  const IncludeSearch& search_;
  std::vector<IncludedFile>* files_;
  DiagEngine& diags_;
  std::map<std::string, std::string> defines_;
  std::set<std::pair<dev_t, ino_t>> seen_;
  size_t total_ = 0;
  bool ok_ = true;
};

}  // namespace

IncludeSearch include_search_from_args(const std::vector<std::string>& args) {
  IncludeSearch s;
  std::vector<std::string> system, after;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const std::string& flag, std::string* out) {
      if (a == flag && i + 1 < args.size()) {
        *out = args[++i];
        return true;
      }
      if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0) {
        *out = a.substr(flag.size());
        return true;
      }
      return false;
    };
    std::string v;
    if (value("-iquote", &v)) s.quote_dirs.push_back(v);
    else if (value("-isystem", &v)) system.push_back(v);
    else if (value("-idirafter", &v)) after.push_back(v);
    else if (value("-I", &v)) s.dirs.push_back(v);
    else if (value("-D", &v)) {
      size_t eq = v.find('=');
      if (eq != std::string::npos) s.defines.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    }
  }
  s.dirs.insert(s.dirs.end(), system.begin(), system.end());
  s.dirs.insert(s.dirs.end(), after.begin(), after.end());
  return s;
}

bool read_included_files(const std::string& main_path, const std::string& main_text, const IncludeSearch& search,
                         std::vector<IncludedFile>* files, DiagEngine& diags) {
  IncludeReader reader(search, files, diags);
  return reader.read(main_path, main_text);
}

}  // namespace mslport::front
