// Parses a Metal snippet for unit tests (passes, analyses, the front end).
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "front/parse_metal.h"
#include "ir/ir.h"
#include "test_support.h"

namespace mslport::testing {

inline const char* kPrelude = "#include <metal_stdlib>\nusing namespace metal;\n";

// A snippet's parse, failed or not, with its diagnostics.
struct ParsedSnippet {
  std::optional<ir::Module> m;
  DiagEngine d;
};
inline std::unique_ptr<ParsedSnippet> parse_snippet(const std::string& name, const std::string& body) {
  auto p = std::make_unique<ParsedSnippet>();
  p->m = front::parse_metal_file(write_temp_file(name, std::string(kPrelude) + body), p->d);
  return p;
}
// The snippet parsed; else the test stops with the first diagnostic.
#define ASSERT_PARSED(p) \
  ASSERT_TRUE((p)->m) << ((p)->d.diagnostics().empty() ? "" : DiagEngine::render((p)->d.diagnostics().front()))

inline ir::Module parse_or_die(const std::string& body, const std::string& name = "snippet.metal") {
  auto p = parse_snippet(name, body);
  std::string rendered;
  for (auto& d : p->d.diagnostics()) rendered += DiagEngine::render(d);
  EXPECT_TRUE(p->m.has_value()) << rendered;
  EXPECT_FALSE(p->d.has_errors()) << rendered;
  return p->m ? std::move(*p->m) : ir::Module{};
}

// Counts statements / expressions of a kind.
inline int count_stmts(const ir::Stmt& s, ir::Stmt::Kind kind) {
  int n = 0;
  ir::walk_stmts(s, [&](const ir::Stmt& x) {
    if (x.kind == kind) ++n;
    return true;
  });
  return n;
}
inline int count_exprs(const ir::Stmt& s, ir::Expr::Kind kind) {
  int n = 0;
  ir::walk_stmt_exprs(s, [&](const ir::Expr& e) {
    if (e.kind == kind) ++n;
    return true;
  });
  return n;
}
inline int find_var(const ir::Kernel& k, const std::string& name) {
  for (size_t i = 0; i < k.vars.size(); ++i)
    if (k.vars[i].name == name) return (int)i;
  return -1;
}
// Top-level statement holding a collective, or nullptr.
inline const ir::Expr* find_collective(const ir::Stmt& s) {
  const ir::Expr* found = nullptr;
  ir::walk_stmt_exprs(s, [&](const ir::Expr& e) {
    if (!found && e.kind == ir::Expr::Kind::Collective) found = &e;
    return true;
  });
  return found;
}

}  // namespace mslport::testing
