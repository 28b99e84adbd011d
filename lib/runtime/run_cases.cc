#include <algorithm>
#include <exception>

#include "runtime/case_buffers.h"
#include "runtime/runner.h"

namespace mslport::runtime {

std::vector<CaseResult> run_cases(const std::vector<GoldenCase>& cases, const std::vector<std::string>& targets,
                                  const std::vector<Executor*>& executors,
                                  const std::vector<std::string>& kernel_filter) {
  std::vector<CaseResult> results;
  for (const GoldenCase& c : cases) {
    if (!kernel_filter.empty() &&
        std::find(kernel_filter.begin(), kernel_filter.end(), c.kernel) == kernel_filter.end())
      continue;
    for (const std::string& t : targets) {
      Executor* ex = nullptr;
      for (Executor* e : executors) {
        if (!e) continue;
        try {
          if (e->target() == t && e->has_kernel(c.kernel)) {
            ex = e;
            break;
          }
        } catch (...) {
        }
      }
      if (!ex) {
        CaseResult r = make_result(c, t);
        r.status = "not_covered";
        r.message = "no " + t + " executor has kernel '" + c.kernel + "'";
        results.push_back(std::move(r));
        continue;
      }
      CaseResult r;
      try {
        r = ex->run(c);
      } catch (const std::exception& e) {
        r = error_result(c, t, std::string("exception: ") + e.what());
      } catch (...) {
        r = error_result(c, t, "unknown exception");
      }
      // The executor's result always names the case as run_cases sees it.
      r.kernel = c.kernel;
      r.case_name = c.name;
      r.target = t;
      results.push_back(std::move(r));
    }
  }
  return results;
}

}  // namespace mslport::runtime
