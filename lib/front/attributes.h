// Recovery of Metal's `[[...]]` parameter attributes from tokens. clang does
// not know `[[buffer(0)]]`, `[[thread_position_in_grid]]` etc. and drops them
// from the AST (-Wno-unknown-attributes silences the warning), so the front
// end re-reads them from the parameter's source tokens.
#pragma once

#include <clang-c/Index.h>

#include <string>
#include <vector>

#include "front/front_context.h"

namespace mslport::front {

struct ParamAttribute {
  std::string name;               // e.g. "buffer", "thread_position_in_grid"
  std::vector<std::string> args;  // token spellings inside the parentheses
  bool has_parens = false;
  ir::SourceLoc loc;  // of the attribute name
};

// For each parameter of `fn` (in order), the attributes written after it.
std::vector<std::vector<ParamAttribute>> param_attributes(FrontContext& ctx, CXCursor fn,
                                                          const std::vector<CXCursor>& params);

}  // namespace mslport::front
