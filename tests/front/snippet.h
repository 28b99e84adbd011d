// A Metal snippet parsed the way the front end's unit tests need it: written
// to a file after `#include <metal_stdlib>` and `using namespace metal;`.
#pragma once

#include <optional>
#include <string>

#include "front/parse_metal.h"
#include "test_support.h"

namespace mslport::front {

inline std::optional<ir::Module> parse(const std::string& name, const std::string& body, DiagEngine& d) {
  std::string src = "#include <metal_stdlib>\nusing namespace metal;\n" + body;
  return parse_metal_file(testing::write_temp_file(name, src), d);
}

// The first diagnostic, rendered; empty when there is none.
inline std::string first_error(const DiagEngine& d) {
  return d.diagnostics().empty() ? "" : DiagEngine::render(d.diagnostics().front());
}

}  // namespace mslport::front
