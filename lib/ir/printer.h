// Human-readable text form of the IR (`mslport ir`). Stable output: used by
// tests as expectations.
#pragma once
#include <string>

#include "ir/ir.h"

namespace mslport::ir {
std::string print_module(const Module& m);
std::string print_kernel(const Module& m, const Kernel& k);
std::string print_function(const Module& m, const Function& f);
std::string print_expr(const Module& m, const Kernel& k, const Expr& e);
}  // namespace mslport::ir
