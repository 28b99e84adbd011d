// The backends' pipelines as the tests run them: the IR verifier after
// every step (passes/pipeline.h), so that a step leaving invalid IR fails
// the test that exercises it, at that step.
#pragma once

#include "passes/pipeline.h"

namespace mslport::testing {

inline const passes::PipelineOptions* verify_each_step() {
  static const passes::PipelineOptions options = [] {
    passes::PipelineOptions o;
    o.verify_each = true;
    return o;
  }();
  return &options;
}

}  // namespace mslport::testing
