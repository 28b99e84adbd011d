// The C++/OpenMP backend's entry point: raise (raise/raise.cc: the steps in
// order, the shared lowering included, then the plans), print (print/).
#include "back/openmp/emit_openmp.h"

#include "back/openmp/print/printer.h"
#include "back/openmp/raise/raise.h"

namespace mslport::back::openmp {

bool emit_module(const ir::Module& module, const EmitOptions& options, DiagEngine& diags, EmitResult* out) {
  RaiseOptions raise;
  raise.sanitize = options.sanitize;
  raise.pipeline = options.pipeline;
  RaisedModule raised;
  if (!raise_module(module, raise, diags, &raised)) return false;
  return print_module(raised, options, diags, out);
}

}  // namespace mslport::back::openmp
