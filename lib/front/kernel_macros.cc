#include "front/kernel_macros.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "front/metal_lexer.h"

namespace mslport::front {
namespace {

// Rescans deeper than this are left to clang (a runaway definition).
constexpr int kMaxExpansionDepth = 32;

struct Macro {
  bool function_like = false;
  std::vector<std::string> params;
  bool variadic = false;
  std::vector<std::string> body;   // the replacement list's tokens
  std::vector<bool> space_before;  // whether whitespace preceded each in the definition
  bool defines_kernel = false;     // a `kernel` token and a `{`: a kernel's definition
};

using Macros = std::map<std::string, Macro>;

// Token texts joined, a space where the source had whitespace between them.
std::string joined(const std::vector<LexToken>& t, size_t first, size_t last) {
  std::string out;
  for (size_t i = first; i < last; ++i) {
    if (i > first && t[i].begin > t[i - 1].end) out += ' ';
    out += t[i].text;
  }
  return out;
}

std::string stringified(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class Expander {
 public:
  // Does an expansion of `name` define a kernel (itself, or through the
  // macros its replacement list names)?
  bool defines_kernel(const Macros& macros, const std::string& name, std::set<std::string>* seen) const {
    auto it = macros.find(name);
    if (it == macros.end() || !seen->insert(name).second) return false;
    if (it->second.defines_kernel) return true;
    for (const std::string& tok : it->second.body)
      if (tok != name && macros.count(tok) && defines_kernel(macros, tok, seen)) return true;
    return false;
  }

  // Expands the invocations of kernel-defining macros in tokens [from, to)
  // of `t` (no directives), appending the text to *out; `active` holds the
  // macros being expanded (not expanded again, as in the preprocessor).
  void expand_range(const Macros& macros, const std::vector<LexToken>& t, size_t from, size_t to,
                    std::set<std::string>& active, int depth, std::string* out) const {
    for (size_t i = from; i < to; ++i) {
      if (i > from && t[i].begin > t[i - 1].end) *out += ' ';
      size_t next = i;
      std::string expansion;
      if (invocation(macros, t, i, to, active, depth, &next, &expansion)) {
        *out += expansion;
        i = next - 1;
        continue;
      }
      *out += t[i].text;
    }
  }

  // If tokens at i invoke a kernel-defining macro: its expansion, and the
  // index after the invocation.
  bool invocation(const Macros& macros, const std::vector<LexToken>& t, size_t i, size_t to,
                  std::set<std::string>& active, int depth, size_t* next, std::string* expansion) const {
    if (t[i].kind != LexToken::Kind::Identifier || depth >= kMaxExpansionDepth || active.count(t[i].text)) return false;
    auto it = macros.find(t[i].text);
    std::set<std::string> seen;
    if (it == macros.end() || !defines_kernel(macros, t[i].text, &seen)) return false;
    const Macro& m = it->second;
    std::vector<std::string> args;
    size_t after = i + 1;
    if (m.function_like) {
      if (after >= to || t[after].text != "(") return false;  // the name alone is no invocation
      size_t start = after + 1;
      int parens = 0;
      size_t k = start;
      for (; k < to; ++k) {
        if (t[k].text == "(") ++parens;
        if (t[k].text == ")" && parens-- == 0) break;
        if (t[k].text == "," && parens == 0) {
          args.push_back(joined(t, start, k));
          start = k + 1;
        }
      }
      if (k >= to) return false;  // not closed: leave it to clang
      if (k > after + 1 || !m.params.empty() || m.variadic) args.push_back(joined(t, start, k));
      after = k + 1;
    }
    std::string text = substituted(m, args);
    active.insert(t[i].text);
    const std::vector<LexToken> rescan = lex_metal(text).tokens;
    expansion->clear();
    expand_range(macros, rescan, 0, rescan.size(), active, depth + 1, expansion);
    active.erase(t[i].text);
    *next = after;
    return true;
  }

  // The replacement list with the arguments in place (`#`, `##`,
  // __VA_ARGS__ as the preprocessor does them).
  static std::string substituted(const Macro& m, const std::vector<std::string>& args) {
    auto argument = [&](const std::string& tok, std::string* value) {
      if (m.variadic && tok == "__VA_ARGS__") {
        value->clear();
        for (size_t a = m.params.size(); a < args.size(); ++a) *value += (a > m.params.size() ? ", " : "") + args[a];
        return true;
      }
      for (size_t p = 0; p < m.params.size(); ++p)
        if (m.params[p] == tok) {
          *value = p < args.size() ? args[p] : "";
          return true;
        }
      return false;
    };
    std::vector<std::string> out;
    std::vector<bool> space;
    bool paste = false;
    for (size_t b = 0; b < m.body.size(); ++b) {
      std::string value;
      const bool space_here = m.space_before[b];  // before `#` for a stringified argument
      if (m.function_like && m.body[b] == "#" && b + 1 < m.body.size() && argument(m.body[b + 1], &value)) {
        value = stringified(value);
        ++b;
      } else if (m.body[b] == "##") {
        paste = true;
        continue;
      } else if (!argument(m.body[b], &value)) {
        value = m.body[b];
      }
      if (paste && !out.empty()) {
        out.back() += value;
      } else {
        out.push_back(value);
        space.push_back(space_here);
      }
      paste = false;
    }
    std::string text;
    for (size_t o = 0; o < out.size(); ++o) text += (o && space[o] ? " " : "") + out[o];
    return text;
  }
};

}  // namespace

std::string expand_kernel_macros(const std::string& src) {
  const LexedSource lexed = lex_metal(src);
  const std::vector<LexToken>& t = lexed.tokens;
  Macros macros;
  Expander expander;
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].directive >= 0) {
      // A directive: #define and #undef change the macros from here on.
      size_t end = i;
      while (end < t.size() && t[end].directive == t[i].directive) ++end;
      const std::string& what = lexed.directive_names.at(t[i].directive);
      if (what == "undef" && i + 2 < end) macros.erase(t[i + 2].text);
      if (what == "define" && i + 2 < end && t[i + 2].kind == LexToken::Kind::Identifier) {
        Macro m;
        size_t k = i + 3;
        if (k < end && t[k].text == "(" && t[k].begin == t[i + 2].end) {
          m.function_like = true;
          for (++k; k < end && t[k].text != ")"; ++k) {
            if (t[k].text == ".") m.variadic = true;  // `...`, lexed as three dots
            else if (t[k].kind == LexToken::Kind::Identifier) m.params.push_back(t[k].text);
          }
          ++k;
        }
        bool kernel = false, brace = false;
        for (; k < end; ++k) {
          m.body.push_back(t[k].text);
          m.space_before.push_back(t[k].begin > t[k - 1].end);
          kernel = kernel || t[k].text == "kernel";
          brace = brace || t[k].text == "{";
        }
        m.defines_kernel = kernel && brace;
        macros[t[i + 2].text] = std::move(m);
      }
      i = end - 1;
      continue;
    }
    std::set<std::string> active;
    size_t next = i;
    std::string expansion;
    if (!expander.invocation(macros, t, i, t.size(), active, 0, &next, &expansion)) continue;
    out.append(src, copied, t[i].begin - copied);
    out += expansion;
    for (size_t c = t[i].begin; c < t[next - 1].end; ++c)
      if (src[c] == '\n') out += '\n';
    copied = t[next - 1].end;
    i = next - 1;
  }
  if (copied == 0) return src;
  out.append(src, copied, std::string::npos);
  return out;
}

}  // namespace mslport::front
