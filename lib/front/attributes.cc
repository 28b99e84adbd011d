#include "front/attributes.h"

namespace mslport::front {

namespace {

// Parses every `[[ a, b(args) ]]` group in toks[begin, end).
std::vector<ParamAttribute> parse_groups(const FrontContext& ctx, CXFile file, const std::vector<Token>& toks,
                                         size_t begin, size_t end) {
  std::vector<ParamAttribute> out;
  std::string fname = ctx.file_name(file);
  for (size_t i = begin; i + 1 < end; ++i) {
    if (toks[i].text != "[" || toks[i + 1].text != "[") continue;
    size_t j = i + 2;
    while (j < end) {
      if (toks[j].text == "]") break;
      if (toks[j].text == ",") {
        ++j;
        continue;
      }
      ParamAttribute a;
      a.loc = ir::SourceLoc{fname, (int)toks[j].line, (int)toks[j].col};
      a.name = toks[j].text;
      ++j;
      // Namespaced attribute names (`metal::buffer`) keep the last component.
      while (j + 1 < end && toks[j].text == "::") {
        a.name = toks[j + 1].text;
        j += 2;
      }
      if (j < end && toks[j].text == "(") {
        a.has_parens = true;
        int depth = 1;
        ++j;
        while (j < end && depth > 0) {
          if (toks[j].text == "(") ++depth;
          if (toks[j].text == ")" && --depth == 0) break;
          a.args.push_back(toks[j].text);
          ++j;
        }
        ++j;  // ')'
      }
      out.push_back(std::move(a));
    }
    i = j + 1;  // skip "]]"
  }
  return out;
}

}  // namespace

std::vector<std::vector<ParamAttribute>> param_attributes(FrontContext& ctx, CXCursor fn,
                                                          const std::vector<CXCursor>& params) {
  std::vector<std::vector<ParamAttribute>> out(params.size());
  FilePos fb = extent_begin(fn);
  // The attribute of the last parameter ends before the body's `{`.
  unsigned header_end = extent_end(fn).offset;
  for (CXCursor c : children(fn))
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt) header_end = extent_begin(c).offset;
  std::vector<Token> toks = file_tokens(ctx.tu, fb.file, fb.offset, header_end);
  for (size_t p = 0; p < params.size(); ++p) {
    unsigned lo = extent_begin(params[p]).offset;
    unsigned hi = p + 1 < params.size() ? extent_begin(params[p + 1]).offset : header_end;
    size_t b = 0, e = 0;
    while (b < toks.size() && toks[b].offset < lo) ++b;
    e = b;
    while (e < toks.size() && toks[e].offset < hi) ++e;
    out[p] = parse_groups(ctx, fb.file, toks, b, e);
  }
  return out;
}

}  // namespace mslport::front
