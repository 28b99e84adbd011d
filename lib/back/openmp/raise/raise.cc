// The OpenMP raise pipeline: read this function to learn the backend.
#include "back/openmp/raise/raise.h"

#include "back/openmp/keywords.h"
#include "back/openmp/raise/invariant_division.h"
#include "back/openmp/raise/loop_schedule_points.h"
#include "passes/bind_function_constants.h"
#include "passes/compute_constants_in_kernels.h"
#include "passes/flatten_argument_buffers.h"
#include "passes/inline_functions.h"
#include "passes/lower_execution_model.h"
#include "passes/rename_reserved.h"
#include "passes/struct_padding.h"

namespace mslport::back::openmp {

bool raise_module(const ir::Module& source, const RaiseOptions& options, DiagEngine& diags, RaisedModule* out) {
  out->module = ir::clone_module(source);
  ir::Module& m = out->module;
  passes::Pipeline p(m, diags, options.pipeline);
  const bool sanitize = options.sanitize != 0;
  // Before everything: the steps after it see kernels only, and a barrier or
  // SIMD-group function of a helper is lowered like one in the kernel.
  // First: a constant computed by a helper gets a local in each kernel that
  // reads it, whose initializer's calls the inliner then inlines.
  p.run("compute_constants_in_kernels", [&] { return passes::compute_constants_in_kernels(m), true; });
  if (!p.run("inline_functions", [&] { return passes::inline_functions(m, diags); })) return false;
  // Then, with every helper's code in the kernels: constants computed by a
  // helper are read from the kernels' locals, and the constants the host
  // sets from the kernels' parameters.
  p.run("read_computed_constants", [&] { return passes::read_computed_constants(m), true; });
  if (!p.run("bind_function_constants", [&] { return passes::bind_function_constants(m, diags); })) return false;
  // Then the pointers that argument buffers hold become buffer parameters,
  // bound through them (after inlining, a helper's reads of them are the
  // kernel's; before rename_reserved, which renames those parameters too).
  if (!p.run("flatten_argument_buffers", [&] { return passes::flatten_argument_buffers(m, diags); })) return false;
  // Then, before any step adds names: ir::add_var keeps those unique
  // against the renamed ones (keywords.h says which names C++ reserves).
  p.run("rename_reserved", [&] { return passes::rename_reserved(m, cpp_reserved_names()), true; });
  // Metal's offsets where they differ from C++'s natural ones (`alignas`);
  // the header's static_asserts check every offset.
  if (!p.run("struct_padding", [&] { return passes::pad_structs(m, diags, "OpenMP"); })) return false;
  bool ok = true;
  for (auto& k : m.kernels) {
    // On the front end's IR: it finds the divisors among the declarations
    // at the top of the kernel, which the lowering moves under masks and
    // flags. Not when sanitizing: the checker reports the source's divisions.
    if (!sanitize) p.run("invariant_division", k, [&] { return prepare_invariant_divisors(k), true; });
    ok = passes::lower_statements(p, m, k, {}) &&
         // After hoist_collectives (a loop holding a collective is no
         // candidate) and before eliminate_returns: a loop turned inside out
         // needs the early returns before it as a flag, like a barrier does.
         // Sanitizing checks the kernel's own schedule, not one of ours.
         (sanitize || p.run("loop_schedule_points", k, [&] { return insert_loop_schedule_points(k), true; })) &&
         passes::lower_synchronisation(p, m, k) && ok;
  }
  if (!ok) return false;

  out->kernels.resize(m.kernels.size());
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    ir::Kernel& k = m.kernels[i];
    RaisedKernel& r = out->kernels[i];
    r.metal_name = source.kernels[i].name;
    // After the lowering, so that the barriers and alive flags it adds are
    // instrumented too; before the plans, which point into the statements.
    if (sanitize) p.run("sanitize", k, [&] { return instrument_for_sanitizer(k, r.sites), true; });
    // The last IR step: the plans below point into the final statements.
    p.run("plan_storage", k, [&] { return r.storage = plan_storage(k), true; });
    // Reads the storage plan: the prefix guards, the streamed stores and the
    // prefetched reads (and the row steps they share) decide per loop.
    LoopPlanOptions loops;
    loops.sanitize = sanitize;
    ok = p.run("plan_loops", k, [&] { return plan_loops(k, r.storage, loops, r.sites, diags, &r.loops); }) && ok;
  }
  return ok;
}

}  // namespace mslport::back::openmp
