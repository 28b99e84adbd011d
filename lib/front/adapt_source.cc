#include "front/adapt_source.h"

#include <algorithm>
#include <set>

#include "front/kernel_macros.h"
#include "front/metal_lexer.h"

namespace mslport::front {

namespace {

using Toks = std::vector<LexToken>;

struct Edit {
  size_t begin, end;  // byte range replaced
  std::string text;
};

class Adapter {
 public:
  Adapter(const std::string& src, const AdaptOptions& options) : src_(src), options_(options) {
    LexedSource lexed = lex_metal(src);
    t_ = std::move(lexed.tokens);
  }

  AdaptResult run() {
    explicit_instantiations();
    function_template_parameters();
    address_space_method_qualifiers();
    function_constants();
    kernel_attribute_lists();
    template_kernel_keywords();
    casts_to_types();
    bool_vector_templates();
    AdaptResult r;
    r.function_constants = function_constants_;
    r.function_constant_defined = function_constant_defined_;
    r.host_set_function_constants = host_set_;
    r.warnings = warnings_;
    r.errors = errors_;
    if (edits_.empty()) {
      r.text = src_;
      return r;
    }
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    size_t at = 0;
    for (auto& e : edits_) {
      if (e.begin < at) continue;  // overlapping: the first edit wins
      r.text.append(src_, at, e.begin - at);
      r.text += e.text;
      at = e.end;
    }
    r.text.append(src_, at, std::string::npos);
    r.changed = true;
    return r;
  }

 private:
  // ---------------------------------------------------------------- helpers --

  bool punct(size_t i, const char* s) const {
    return i < t_.size() && t_[i].kind == LexToken::Kind::Punct && t_[i].text == s;
  }
  bool same_unit(size_t a, size_t b) const { return t_[a].directive == t_[b].directive; }
  bool covered(size_t offset) const {
    for (auto& e : edits_)
      if (offset >= e.begin && offset < e.end) return true;
    return false;
  }
  std::string text(size_t first, size_t last_exclusive) const {  // source text of tokens [first, last)
    if (first >= last_exclusive) return "";
    return src_.substr(t_[first].begin, t_[last_exclusive - 1].end - t_[first].begin);
  }

  // Replaces bytes [begin, end) by `text` followed by the line breaks the
  // range held (with a backslash inside a directive), so lines stay put.
  void replace(size_t begin, size_t end, std::string text, bool in_directive) {
    for (size_t i = begin; i < end; ++i)
      if (src_[i] == '\n') text += in_directive ? " \\\n" : "\n";
    edits_.push_back(Edit{begin, end, std::move(text)});
  }
  void insert(size_t at, std::string text) { edits_.push_back(Edit{at, at, std::move(text)}); }

  // First token of the declaration or statement that holds token i (after
  // the last `;`, `{` or `}` before it, within the same directive).
  size_t decl_start(size_t i) const {
    size_t bound = t_[i].directive >= 0 ? first_body_token(i) : 0;
    size_t j = i;
    while (j > bound) {
      const LexToken& p = t_[j - 1];
      if (!same_unit(j - 1, i)) break;
      if (p.kind == LexToken::Kind::Punct && (p.text == ";" || p.text == "{" || p.text == "}")) break;
      --j;
    }
    return j;
  }
  // In a #define: the first token of the macro's replacement list.
  size_t first_body_token(size_t i) const {
    size_t j = i;
    while (j > 0 && same_unit(j - 1, i)) --j;
    // `# define NAME` or `# define NAME ( params )`
    size_t k = j + 2;
    if (k < t_.size() && same_unit(k, i) && t_[k].kind == LexToken::Kind::Identifier) {
      ++k;
      if (punct(k, "(") && t_[k].begin == t_[k - 1].end) {
        size_t close = matching_close(t_, k);
        k = close < t_.size() ? close + 1 : k;
      }
    }
    return k;
  }

  // Is there a `template <` in [from, to)?
  bool has_template_header(size_t from, size_t to) const {
    for (size_t k = from; k + 1 < to; ++k)
      if (t_[k].ident("template") && punct(k + 1, "<")) return true;
    return false;
  }

  // The `;` ending the statement that starts at i (depth 0), or npos.
  size_t statement_end(size_t i) const {
    for (size_t k = i; k < t_.size() && same_unit(k, i); ++k) {
      if (punct(k, "(") || punct(k, "[") || punct(k, "{")) {
        size_t c = matching_close(t_, k);
        if (c >= t_.size()) return std::string::npos;
        k = c;
        continue;
      }
      if (punct(k, ";")) return k;
    }
    return std::string::npos;
  }

  // For an attribute list `[[` at i: the index of its final `]`, or npos.
  size_t attribute_list_end(size_t i) const {
    if (!punct(i, "[") || !punct(i + 1, "[") || !same_unit(i, i + 1)) return std::string::npos;
    size_t c = matching_close(t_, i);
    if (c >= t_.size() || !punct(c - 1, "]")) return std::string::npos;
    return c;
  }

  struct AttrItem {
    std::string name;    // "kernel", "host_name", ...
    size_t first, last;  // tokens of the item [first, last)
    std::string args;    // text between the parentheses
  };
  std::vector<AttrItem> attribute_items(size_t open, size_t close) const {
    std::vector<AttrItem> items;
    size_t k = open + 2, end = close - 1;
    while (k < end) {
      AttrItem it;
      it.first = k;
      size_t e = k;
      while (e < end && !punct(e, ",")) {
        if (punct(e, "(") || punct(e, "[")) {
          size_t c = matching_close(t_, e);
          if (punct(e, "(") && it.args.empty()) it.args = text(e + 1, c);
          e = c;
        }
        if (t_[e].kind == LexToken::Kind::Identifier && it.name.empty()) it.name = t_[e].text;
        ++e;
      }
      // `ns::name`: the last identifier before the arguments names it.
      for (size_t q = k; q < e && !punct(q, "("); ++q)
        if (t_[q].kind == LexToken::Kind::Identifier) it.name = t_[q].text;
      it.last = e;
      if (e > k) items.push_back(it);
      k = e + 1;
    }
    return items;
  }

  // The body `{` of the function declared from token i on (after its
  // parameter list), or npos for a declaration without body.
  size_t function_body_open(size_t i) const {
    size_t k = i;
    for (; k < t_.size() && same_unit(k, i); ++k) {
      if (punct(k, ";")) return std::string::npos;
      if (punct(k, "(")) break;
      if (punct(k, "[") && attribute_list_end(k) != std::string::npos) k = attribute_list_end(k);
    }
    if (k >= t_.size() || !punct(k, "(")) return std::string::npos;
    k = matching_close(t_, k);
    for (++k; k < t_.size() && same_unit(k, i); ++k) {
      if (punct(k, "{")) return k;
      if (punct(k, ";")) return std::string::npos;
      if (punct(k, "[") && attribute_list_end(k) != std::string::npos) k = attribute_list_end(k);
    }
    return std::string::npos;
  }

  // ----------------------------------------------------- the adaptations --

  // template [[host_name(X)]] [[kernel]] decltype(f<T>) f<T>;
  // template [[host_name(X)]] kernel void f<T>(params);
  void explicit_instantiations() {
    for (size_t i = 0; i + 1 < t_.size(); ++i) {
      if (!t_[i].ident("template") || punct(i + 1, "<")) continue;
      size_t semi = statement_end(i);
      if (semi == std::string::npos) continue;
      std::string host = "\"\"";
      bool is_kernel = false;
      size_t k = i + 1;
      for (size_t q = k; q < semi; ++q)
        if (t_[q].ident("kernel")) is_kernel = true;
      while (attribute_list_end(k) != std::string::npos) {
        size_t close = attribute_list_end(k);
        for (auto& it : attribute_items(k, close)) {
          if (it.name == "host_name") host = it.args;
          if (it.name == "kernel") is_kernel = true;
        }
        k = close + 1;
      }
      if (!is_kernel) continue;  // an explicit instantiation clang understands
      // The instantiated template-id ends the declarator: before `(params)`
      // or before the `;`.
      size_t end = semi;
      if (punct(end - 1, ")")) {
        int depth = 0;
        for (size_t q = end - 1; q > k; --q) {
          if (punct(q, ")")) ++depth;
          if (punct(q, "(") && --depth == 0) {
            end = q;
            break;
          }
        }
      }
      size_t name = std::string::npos;
      if (punct(end - 1, ">") || punct(end - 1, ">>")) {
        int depth = 0;
        for (size_t q = end - 1; q > k; --q) {
          if (punct(q, ">")) ++depth;
          if (punct(q, ">>")) depth += 2;
          if (punct(q, "<") && --depth == 0) {
            name = q - 1;
            break;
          }
        }
      }
      if (name == std::string::npos || t_[name].kind != LexToken::Kind::Identifier) {
        errors_.push_back({t_[i].line, "cannot find the template kernel this explicit instantiation names"});
        continue;
      }
      while (name >= 2 && punct(name - 1, "::") && t_[name - 2].kind == LexToken::Kind::Identifier) name -= 2;
      std::string entity = text(name, end);
      std::string repl = "__attribute__((annotate(\"" + std::string(kInstancePrefix) + "\" " + host +
                         "))) void __MSLPORT_INSTANCE() { (void)&" + entity + "; }";
      replace(t_[i].begin, t_[semi].end, repl, t_[i].directive >= 0);
    }
  }

  // A function as a template argument (`template <void (*deq)(...)>`):
  // clang's OpenCL mode gives the parameter's pointee the generic address
  // space, which no function has, so no argument matches. A reference to a
  // function means the same to every use (`deq(x)`, passing `deq` on).
  void function_template_parameters() {
    for (size_t i = 0; i + 1 < t_.size(); ++i) {
      if (!t_[i].ident("template") || !punct(i + 1, "<")) continue;
      // The template parameter list, to its matching `>`.
      int depth = 0;
      size_t end = i + 1;
      for (; end < t_.size() && same_unit(end, i); ++end) {
        if (punct(end, "<")) ++depth;
        if (punct(end, ">") && --depth == 0) break;
        if (punct(end, ">>") && (depth -= 2) <= 0) break;
        if (punct(end, "(") || punct(end, "[")) end = matching_close(t_, end);
      }
      for (size_t k = i + 2; k + 4 < end; ++k)
        if (punct(k, "(") && punct(k + 1, "*") && t_[k + 2].kind == LexToken::Kind::Identifier && punct(k + 3, ")") &&
            punct(k + 4, "("))
          replace(t_[k + 1].begin, t_[k + 1].end, "&", false);
    }
  }

  // `S(U x) constant : ...` and `f() constant`: a member function for objects
  // in the constant space. The shim's `constant` is `__constant const`, and
  // const is no qualifier a constructor may have: only the space is meant.
  void address_space_method_qualifiers() {
    for (size_t i = 1; i < t_.size(); ++i) {
      // `) thread` and `) const thread` alike (SPIRV-Cross's spvUnsafeArray
      // declares both): removing only one would leave a generic non-const
      // and a private const overload that a private object matches equally.
      const bool after_const = i >= 2 && t_[i - 1].ident("const") && punct(i - 2, ")") && same_unit(i - 2, i);
      if (!(punct(i - 1, ")") && same_unit(i - 1, i)) && !after_const) continue;
      if (covered(t_[i].begin)) continue;
      if (t_[i].ident("constant") && !after_const) replace(t_[i].begin, t_[i].end, "__constant", false);
      // `thread` is Metal's default space for objects: unqualified, the member
      // also serves the temporaries clang gives no space of their own. The
      // object is then generic, so a `thread T&` it returns is too.
      if (t_[i].ident("thread")) {
        replace(t_[i].begin, t_[i].end, "      ", false);
        size_t close = after_const ? i - 2 : i - 1, open = close;
        for (int depth = 0; open > 0; --open) {
          if (punct(open, ")")) ++depth;
          if (punct(open, "(") && --depth == 0) break;
        }
        for (size_t k = decl_start(open); k < open; ++k)
          if (t_[k].ident("thread") && !covered(t_[k].begin)) replace(t_[k].begin, t_[k].end, "      ", false);
        // So are the pointers and references its body takes to the members
        // (`reinterpret_cast<thread T*>(elements)`, MLX's steel fragments):
        // unqualified they are generic too, and a local the body declares
        // `thread` is private unqualified as well.
        if (punct(i + 1, "{") && same_unit(i, i + 1)) {
          const size_t end = matching_close(t_, i + 1);
          for (size_t k = i + 2; k < end && k < t_.size(); ++k)
            if (t_[k].ident("thread") && !covered(t_[k].begin)) replace(t_[k].begin, t_[k].end, "      ", false);
        }
      }
    }
  }

  // `vec<bool, N>`: Metal's bool vectors are a struct of the shim's (clang's
  // OpenCL mode has no bool ext vectors), which `vec` (an ext vector alias)
  // cannot name.
  void bool_vector_templates() {
    for (size_t i = 0; i + 3 < t_.size(); ++i) {
      if (!t_[i].ident("vec") || !punct(i + 1, "<") || !t_[i + 2].ident("bool") || !punct(i + 3, ",")) continue;
      if (i > 0 && (punct(i - 1, ".") || punct(i - 1, "->"))) continue;  // a member named vec
      if (!same_unit(i, i + 3) || covered(t_[i].begin)) continue;
      replace(t_[i].begin, t_[i + 3].end, "__mslport_bool_vector<", t_[i].directive >= 0);
    }
  }

  // constant T name [[function_constant(i)]];
  void function_constants() {
    for (size_t i = 0; i + 1 < t_.size(); ++i) {
      size_t close = attribute_list_end(i);
      if (close == std::string::npos || !punct(close + 1, ";") || covered(t_[i].begin)) continue;
      auto items = attribute_items(i, close);
      if (items.size() != 1 || items[0].name != "function_constant") continue;
      if (i == 0 || t_[i - 1].kind != LexToken::Kind::Identifier) continue;
      std::string name = t_[i - 1].text;
      std::string index = items[0].args;
      index.erase(std::remove_if(index.begin(), index.end(), ::isspace), index.end());
      int idx = -1;
      if (!index.empty() && index.size() < 9 && std::all_of(index.begin(), index.end(), ::isdigit))
        idx = std::stoi(index);
      function_constants_[name] = idx;
      std::string value;
      if (auto it = options_.function_constants.find(name); it != options_.function_constants.end()) value = it->second;
      else if (auto it2 = options_.function_constants.find(std::to_string(idx));
               idx >= 0 && it2 != options_.function_constants.end())
        value = it2->second;
      bool defined = !value.empty();
      // Required (no is_function_constant_defined names it) and given no
      // value: the host sets it at dispatch, as Metal's host does when it
      // makes the pipeline. clang sees an extern constant, so a use that
      // needs its value at compile time (an array bound, a template
      // argument) is clang's error at that use; the index is a companion
      // constant, evaluated by clang (it may be an expression of macros).
      const bool host_set = !defined && !options_.checked_function_constants.count(name);
      const bool in_directive = t_[i].directive >= 0;
      if (host_set) {
        host_set_.insert(name);
        insert(t_[decl_start(i - 1)].begin, "extern ");
        replace(t_[i].begin, t_[close].end, "", in_directive);
        insert(t_[close + 1].end, std::string(" constant bool ") + kFcDefinedPrefix + name + " = true; constant int " +
                                      kFcIndexPrefix + name + " = (" + items[0].args + ");");
        function_constant_defined_[name] = true;
        continue;
      }
      function_constant_defined_[name] = defined;
      // An optional one without a value is extern too: clang then folds no
      // condition that reads its value (`if (c == 2)` would otherwise take
      // `= {}` as 0), and the front end says it has no value where it is read.
      if (!defined) insert(t_[decl_start(i - 1)].begin, "extern ");
      std::string repl = defined ? "= (" + value + ")" : "";
      replace(t_[i].begin, t_[close].end, repl, in_directive);
      insert(t_[close + 1].end,
             std::string(" constant bool ") + kFcDefinedPrefix + name + " = " + (defined ? "true" : "false") + ";");
    }
  }

  // Attribute lists on a function declaration that hold kernel, host_name
  // or max_total_threads_per_threadgroup.
  void kernel_attribute_lists() {
    for (size_t i = 0; i + 1 < t_.size(); ++i) {
      size_t close = attribute_list_end(i);
      if (close == std::string::npos || covered(t_[i].begin)) continue;
      auto items = attribute_items(i, close);
      bool relevant = false;
      for (auto& it : items)
        if (it.name == "kernel" || it.name == "host_name" || it.name == "max_total_threads_per_threadgroup")
          relevant = true;
      if (!relevant) continue;
      bool is_template = has_template_header(decl_start(i), i);
      std::string front, keep, keyword, max_threads;
      for (auto& it : items) {
        if (it.name == "kernel") {
          keyword = is_template ? "__mkrn" : "kernel";
        } else if (it.name == "host_name") {
          front += "__attribute__((annotate(\"" + std::string(kHostNamePrefix) + "\" " + it.args + "))) ";
        } else if (it.name == "max_total_threads_per_threadgroup") {
          max_threads = it.args;
        } else {
          keep += (keep.empty() ? "" : ", ") + text(it.first, it.last);
        }
      }
      std::string repl = front + (keep.empty() ? "" : "[[" + keep + "]] ") + keyword;
      replace(t_[i].begin, t_[close].end, repl, t_[i].directive >= 0);
      if (keyword == "__mkrn") template_kernel_body(close + 1);
      if (!max_threads.empty()) {
        size_t open = function_body_open(close + 1);
        if (open != std::string::npos)
          insert(t_[open].end, std::string(" constexpr unsigned ") + kMaxThreadsName + " = (" + max_threads + ");");
      }
    }
  }

  // `kernel` in a template declaration: OpenCL has no template kernels.
  void template_kernel_keywords() {
    for (size_t i = 0; i < t_.size(); ++i) {
      if (!t_[i].ident("kernel") || covered(t_[i].begin)) continue;
      size_t start = decl_start(i);
      if (!has_template_header(start, i)) continue;
      replace(t_[i].begin, t_[i].end, "__mkrn", false);
      template_kernel_body(i + 1);
    }
  }

  // Function-scope threadgroup variables of a template kernel whose
  // declaration continues at token i.
  void template_kernel_body(size_t i) {
    size_t open = function_body_open(i);
    if (open == std::string::npos) return;
    size_t close = matching_close(t_, open);
    for (size_t k = open + 1; k < close && k < t_.size(); ++k) {
      if (!t_[k].ident("threadgroup") || !same_unit(k, open)) continue;
      if (!(punct(k - 1, "{") || punct(k - 1, "}") || punct(k - 1, ";"))) continue;
      threadgroup_declaration(k);
    }
  }

  void threadgroup_declaration(size_t k) {
    size_t semi = statement_end(k);
    if (semi == std::string::npos) return;
    // Declarators: split at depth-0 commas; each one's name is the last
    // identifier before its first `[` (or its end).
    struct Declarator {
      size_t name;
      size_t suffix_end;  // tokens (name, suffix_end) are the array bounds
    };
    std::vector<Declarator> decls;
    size_t type_end = std::string::npos;
    int angle = 0;
    size_t last_ident = std::string::npos;
    size_t q = k + 1;
    while (q < semi) {
      const LexToken& t = t_[q];
      if (punct(q, "(")) return;  // a function-style declaration or an expression: leave it
      if (punct(q, "<")) ++angle;
      if (punct(q, ">")) --angle;
      if (punct(q, ">>")) angle -= 2;
      if (angle == 0 && (punct(q, "*") || punct(q, "&"))) return;  // a pointer or reference to threadgroup memory
      // An initializer (after a name or its bounds): threadgroup memory has
      // no initial value in a port (which thread would write it?), so it is
      // left out, with a warning. Returns the token after it.
      auto skip_initializer = [&](size_t at) {
        warnings_.push_back({t_[at].line,
                             "the initializer of a threadgroup variable is ignored: initialize it "
                             "explicitly (and put a barrier after)"});
        size_t e = at;
        while (e < semi && !punct(e, ",")) {
          if (punct(e, "{") || punct(e, "(") || punct(e, "[")) e = matching_close(t_, e);
          ++e;
        }
        return e < semi ? e + 1 : semi;
      };
      if (angle == 0 && punct(q, "=")) {
        if (last_ident == std::string::npos) return;
        if (type_end == std::string::npos) type_end = last_ident;
        decls.push_back({last_ident, q});
        last_ident = std::string::npos;
        q = skip_initializer(q);
        continue;
      }
      if (t.kind == LexToken::Kind::Identifier) last_ident = q;
      if (angle == 0 && (punct(q, "[") || punct(q, ","))) {
        if (last_ident == std::string::npos) return;
        size_t e = q;
        while (punct(e, "[")) e = matching_close(t_, e) + 1;
        if (type_end == std::string::npos) type_end = last_ident;
        decls.push_back({last_ident, e});
        last_ident = std::string::npos;
        q = punct(e, ",") ? e + 1 : punct(e, "=") ? skip_initializer(e) : e;
        continue;
      }
      ++q;
    }
    if (last_ident != std::string::npos) {
      if (type_end == std::string::npos) type_end = last_ident;
      decls.push_back({last_ident, semi});
    }
    if (decls.empty() || type_end <= k + 1) return;
    std::string type = text(k + 1, type_end);
    std::string typedefs = "typedef threadgroup " + type + " ", refs;
    for (size_t d = 0; d < decls.size(); ++d) {
      const std::string& name = t_[decls[d].name].text;
      std::string alias = "__mslport_tg_" + name;
      typedefs += (d ? ", " : "") + alias + text(decls[d].name + 1, decls[d].suffix_end);
      refs += " " + alias + "& " + name + " = metal::" + kThreadgroupStorageName + "<" + alias + ">();";
    }
    replace(t_[k].begin, t_[semi].end, typedefs + ";" + refs, t_[k].directive >= 0);
  }

  const std::string& src_;
  const AdaptOptions& options_;
  // ------------------------------------------------- casts to vector types --

  // Is `name` a Metal vector type (float4, packed_half3, ...)?
  static bool is_vector_type_name(const std::string& name) {
    static const char* const kElements[] = {"bool", "char", "uchar", "short", "ushort", "int",
                                            "uint", "long", "ulong", "half",  "float",  "bfloat"};
    std::string n = name.rfind("packed_", 0) == 0 ? name.substr(7) : name;
    if (n.size() < 2 || n.back() < '2' || n.back() > '4') return false;
    n.pop_back();
    return std::any_of(std::begin(kElements), std::end(kElements), [&](const char* e) { return n == e; });
  }

  // Names declared as template type parameters (`typename T`, `class T`)
  // anywhere in the file: in a cast they may stand for a vector type.
  std::set<std::string> template_type_parameters() const {
    std::set<std::string> out;
    for (size_t i = 0; i + 2 < t_.size(); ++i) {
      if (!(t_[i].ident("typename") || t_[i].ident("class")) || t_[i + 1].kind != LexToken::Kind::Identifier) continue;
      if (punct(i + 2, ",") || punct(i + 2, ">") || punct(i + 2, ">>") || punct(i + 2, "=")) out.insert(t_[i + 1].text);
    }
    return out;
  }

  // The end (exclusive) of the postfix expression starting at token i: a
  // name (qualified with ::) or a parenthesised expression, then any number
  // of .name, ->name, [..], (..), ++, --. npos when it is not one this
  // rewrite can delimit (a template-id, say).
  size_t postfix_expression_end(size_t i) const {
    size_t k = i;
    if (k >= t_.size() || !same_unit(k, i)) return std::string::npos;
    if (punct(k, "(")) {
      k = matching_close(t_, k);
      if (k >= t_.size()) return std::string::npos;
      ++k;
    } else if (t_[k].kind == LexToken::Kind::Identifier || t_[k].kind == LexToken::Kind::Number) {
      ++k;
      while (punct(k, "::") && k + 1 < t_.size() && t_[k + 1].kind == LexToken::Kind::Identifier) k += 2;
      if (punct(k, "<")) return std::string::npos;
    } else {
      return std::string::npos;
    }
    while (k < t_.size() && same_unit(k, i)) {
      if ((punct(k, ".") || punct(k, "->")) && k + 1 < t_.size() && t_[k + 1].kind == LexToken::Kind::Identifier) {
        k += 2;
        if (punct(k, "<")) return std::string::npos;
      } else if (punct(k, "[") || punct(k, "(")) {
        size_t c = matching_close(t_, k);
        if (c >= t_.size()) return std::string::npos;
        k = c + 1;
      } else if (punct(k, "++") || punct(k, "--")) {
        ++k;
      } else {
        break;
      }
    }
    return k;
  }

  // A C-style cast to a vector type, `(float4)h` or `(T)(*src)` with T a
  // template parameter, converts each element in Metal; clang's vector
  // casts reinterpret the bits instead, or refuse vectors of another size.
  // So does `static_cast<T>(x)`, and `T(x)` for a template parameter T.
  // These become `float4(h)` (the shim's vector constructor) or
  // `::metal::__mslport_convert<T>(x)` (a conversion for the front end).
  // The operand of a C-style cast must be a name or a parenthesised
  // expression with its postfix operators, optionally after a unary -, *,
  // ! or ~; any other cast is left to clang. Parentheses after a name,
  // `)`, `]` or `>` are a call's or a statement's (`if (T) x`), never a
  // cast; `T(x)` is taken as a cast only where an expression must start
  // (after an operator, `(`, `,` or `return`), not as a declaration.
  void casts_to_types() {
    std::set<std::string> type_params = template_type_parameters();
    auto is_cast_type = [&](size_t i) {
      return i < t_.size() && t_[i].kind == LexToken::Kind::Identifier &&
             (is_vector_type_name(t_[i].text) || type_params.count(t_[i].text));
    };
    auto conversion = [&](size_t i) {  // the function a cast to t_[i] becomes, with its `(`
      return is_vector_type_name(t_[i].text) ? t_[i].text + "(" : "::metal::__mslport_convert<" + t_[i].text + ">(";
    };
    auto expression_starts_after = [&](size_t i) {  // may an expression start at token i?
      if (i == 0 || !same_unit(i - 1, i)) return false;
      const LexToken& p = t_[i - 1];
      if (p.ident("return") || p.ident("case") || p.ident("co_return")) return true;
      if (p.kind != LexToken::Kind::Punct) return false;
      static const std::set<std::string> ends = {")", "]", ">", ">>", ".", "->", "::", "++", "--", ";", "{", "}"};
      return !ends.count(p.text);
    };
    auto no_top_level_comma = [&](size_t open) {
      size_t c = matching_close(t_, open);
      for (size_t k = open + 1; k < c && k < t_.size(); ++k) {
        if (punct(k, "(") || punct(k, "[") || punct(k, "{")) k = matching_close(t_, k);
        else if (punct(k, ",")) return false;
      }
      return c < t_.size();
    };
    // The end of `<...>` opening at token i (the index of its `>`), or npos.
    auto template_arguments_end = [&](size_t i) {
      int depth = 0;
      for (size_t k = i; k < t_.size(); ++k) {
        if (punct(k, "(") || punct(k, "[") || punct(k, "{")) k = matching_close(t_, k);
        else if (punct(k, "<")) ++depth;
        else if (punct(k, ">") && --depth == 0) return k;
        else if (punct(k, ";") || punct(k, ")") || punct(k, ">>")) break;  // `>>` closing two: left to clang
      }
      return std::string::npos;
    };
    for (size_t i = 0; i + 3 < t_.size(); ++i) {
      if (covered(t_[i].begin)) continue;
      // vec<T, N>(a, b), metal::vec<T, N>(h4): Metal's vector constructor,
      // as `float4(a, b)`, for a vector named by its template.
      if (t_[i].ident("vec") && punct(i + 1, "<") && same_unit(i, i + 1)) {
        size_t first = i;
        if (first >= 2 && t_[first - 1].is("::") && t_[first - 2].ident("metal")) first -= 2;
        if (first >= 1 && t_[first - 1].is("::")) --first;
        size_t close = template_arguments_end(i + 1);
        if (close != std::string::npos && punct(close + 1, "(") && same_unit(first, close + 1) &&
            expression_starts_after(first)) {
          insert(t_[first].begin, "::metal::__mslport_make_vector<");
          insert(t_[close].end, ">");
          i = close + 1;
          continue;
        }
      }
      // static_cast<T>(x)
      if (t_[i].ident("static_cast") && punct(i + 1, "<") && is_cast_type(i + 2) && punct(i + 3, ">") &&
          punct(i + 4, "(") && same_unit(i, i + 4)) {
        replace(t_[i].begin, t_[i + 4].end, conversion(i + 2), false);
        i += 4;
        continue;
      }
      // T(x), T a template parameter
      if (t_[i].kind == LexToken::Kind::Identifier && type_params.count(t_[i].text) && punct(i + 1, "(") &&
          same_unit(i, i + 1) && !punct(i + 2, ")") && expression_starts_after(i) && no_top_level_comma(i + 1)) {
        replace(t_[i].begin, t_[i + 1].end, conversion(i), false);
        ++i;
        continue;
      }
      // (T)x
      if (!punct(i, "(") || !is_cast_type(i + 1) || !punct(i + 2, ")") || !same_unit(i, i + 2)) continue;
      bool statement_start =
          i == 0 || !same_unit(i - 1, i) || punct(i - 1, ";") || punct(i - 1, "{") || punct(i - 1, "}");
      if (!statement_start && !expression_starts_after(i)) continue;
      size_t operand = i + 3;
      if (punct(operand, "-") || punct(operand, "*") || punct(operand, "!") || punct(operand, "~")) ++operand;
      size_t end = postfix_expression_end(operand);
      if (end == std::string::npos || end <= operand || !same_unit(i, end - 1)) continue;
      // `(f)(a, b)` calls a parenthesised name as often as `(T)(a, b)`
      // casts a comma expression: left alone.
      if (operand == i + 3 && punct(operand, "(") && !no_top_level_comma(operand)) continue;
      if (covered(t_[end - 1].begin)) continue;
      replace(t_[i].begin, t_[i + 2].end, conversion(i + 1), false);
      insert(t_[end - 1].end, ")");
      i += 2;
    }
  }

  Toks t_;
  std::vector<Edit> edits_;
  std::map<std::string, int> function_constants_;
  std::map<std::string, bool> function_constant_defined_;
  std::set<std::string> host_set_;
  std::vector<std::pair<int, std::string>> errors_, warnings_;
};

}  // namespace

std::set<std::string> function_constants_checked(const std::string& text) {
  std::set<std::string> out;
  const Toks t = lex_metal(text).tokens;
  for (size_t i = 0; i + 3 < t.size(); ++i)
    if (t[i].kind == LexToken::Kind::Identifier && t[i].text == "is_function_constant_defined" &&
        t[i + 1].text == "(" && t[i + 2].kind == LexToken::Kind::Identifier && t[i + 3].text == ")")
      out.insert(t[i + 2].text);
  return out;
}

AdaptResult adapt_metal_source(const std::string& text, const AdaptOptions& options) {
  // First: the adaptations below then see a macro-defined kernel's tokens.
  const std::string expanded = expand_kernel_macros(text);
  AdaptResult r = Adapter(expanded, options).run();
  r.changed = r.changed || expanded != text;
  return r;
}

}  // namespace mslport::front
