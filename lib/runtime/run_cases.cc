#include <algorithm>
#include <chrono>
#include <exception>
#include <map>

#include "runtime/case_buffers.h"
#include "runtime/runner.h"

namespace mslport::runtime {

std::vector<CaseResult> run_cases(const std::vector<GoldenCase>& cases, const std::vector<std::string>& targets,
                                  const std::vector<Executor*>& executors,
                                  const std::vector<std::string>& kernel_filter) {
  // Which executor runs each (case, target), in report order.
  struct Task {
    const GoldenCase* c;
    std::string target;
    Executor* ex;
  };
  std::vector<Task> tasks;
  for (const GoldenCase& c : cases) {
    if (!kernel_filter.empty() &&
        std::find(kernel_filter.begin(), kernel_filter.end(), c.kernel) == kernel_filter.end())
      continue;
    for (const std::string& t : targets) {
      Executor* ex = nullptr;
      for (Executor* e : executors) {
        if (!e) continue;
        try {
          if (e->target() == t && case_runs_on(c, *e)) {
            ex = e;
            break;
          }
        } catch (...) {
        }
      }
      tasks.push_back({&c, t, ex});
    }
  }
  // Run one executor's cases together (in report order within it): an
  // executor that keeps a worker process (isolated_executor.h) then needs
  // it once, not once per turn; the report keeps the cases' order.
  std::vector<size_t> order(tasks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::map<Executor*, size_t> first_use;
  for (const Task& t : tasks) first_use.emplace(t.ex, first_use.size());
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return first_use[tasks[a].ex] < first_use[tasks[b].ex]; });
  std::vector<CaseResult> results(tasks.size());
  for (size_t i : order) {
    const Task& task = tasks[i];
    const GoldenCase& c = *task.c;
    if (!task.ex) {
      CaseResult r = make_result(c, task.target);
      r.status = "not_covered";
      r.message = "no " + task.target + " executor has kernel '" + c.kernel + "'";
      if (!c.function_constants.empty()) r.message += " with the case's function constants";
      results[i] = std::move(r);
      continue;
    }
    CaseResult r;
    const auto start = std::chrono::steady_clock::now();
    try {
      r = task.ex->run(c);
    } catch (const std::exception& e) {
      r = error_result(c, task.target, std::string("exception: ") + e.what());
    } catch (...) {
      r = error_result(c, task.target, "unknown exception");
    }
    // The executor's result always names the case as run_cases sees it.
    r.kernel = c.kernel;
    r.case_name = c.name;
    r.target = task.target;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    results[i] = std::move(r);
  }
  return results;
}

}  // namespace mslport::runtime
