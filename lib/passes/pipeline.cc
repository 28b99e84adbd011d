#include "passes/pipeline.h"

#include <algorithm>
#include <ostream>

#include "ir/printer.h"
#include "ir/verifier.h"

namespace mslport::passes {

bool Pipeline::wants(const std::set<std::string>& names, const char* name) const {
  return names.count("all") || names.count(name);
}

void Pipeline::note(const char* name) {
  if (!options_ || !options_->steps_run) return;
  std::vector<std::string>& steps = *options_->steps_run;
  if (std::find(steps.begin(), steps.end(), name) == steps.end()) steps.push_back(name);
}

void Pipeline::print(const char* when, const char* name, const ir::Kernel* k) {
  std::ostream& os = *options_->out;
  if (!k && options_->kernel < 0) {  // a step on the module: its structs and constants too
    os << "// -- IR " << when << " " << name << "\n" << ir::print_module(m_);
    return;
  }
  for (size_t i = 0; i < m_.kernels.size(); ++i) {
    const ir::Kernel& x = m_.kernels[i];
    if ((k && &x != k) || (options_->kernel >= 0 && int(i) != options_->kernel)) continue;
    os << "// -- IR " << when << " " << name << " (kernel " << x.name << ")\n" << ir::print_kernel(m_, x);
  }
}

bool Pipeline::after(const char* name, const ir::Kernel* k, bool ok, int errors_before) {
  ok = ok && diags_.error_count() == errors_before;
  if (!ok || !options_) return ok;
  if (options_->verify_each) {
    for (const ir::Kernel& x : m_.kernels) {
      if (k && &x != k) continue;
      if (!ir::verify_kernel(m_, x, diags_)) {
        diags_.error(x.loc, std::string("internal error: the IR is invalid after the step '") + name + "'");
        return false;
      }
    }
  }
  if (options_->out && wants(options_->print_after, name)) print("after", name, k);
  return true;
}

bool Pipeline::run(const char* name, ir::Kernel& k, const std::function<bool()>& step) {
  note(name);
  if (options_ && options_->out && wants(options_->print_before, name)) print("before", name, &k);
  const int errors_before = diags_.error_count();
  const bool ok = step();
  return after(name, &k, ok, errors_before);
}

bool Pipeline::run(const char* name, const std::function<bool()>& step) {
  note(name);
  if (options_ && options_->out && wants(options_->print_before, name)) print("before", name, nullptr);
  const int errors_before = diags_.error_count();
  const bool ok = step();
  return after(name, nullptr, ok, errors_before);
}

}  // namespace mslport::passes
