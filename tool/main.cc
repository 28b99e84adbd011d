// mslport: ports Metal compute kernels to C++/OpenMP and OpenCL C and
// proves the ports against golden outputs.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "commands.h"
#include "front/parse_metal.h"

using namespace mslport::tool;

namespace {

// -I, -D, -U and --function-constant, as clang spells the first three.
void add_front_end_options(CLI::App* cmd, mslport::front::ParseOptions* p) {
  cmd->add_option("-I,--include-path", p->include_dirs,
                  "Search DIR for included files (after the including file's directory for \"quoted\" includes)")
      ->type_name("DIR");
  cmd->add_option("-D,--define", p->defines, "Define a macro: NAME or NAME=VALUE")->type_name("MACRO");
  cmd->add_option("-U,--undefine", p->undefines, "Undefine a macro (Metal's predefined ones included)")
      ->type_name("NAME");
  cmd->add_option_function<std::vector<std::string>>(
         "--function-constant",
         [p](const std::vector<std::string>& v) {
           for (auto& kv : v) {
             auto eq = kv.find('=');
             if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
               throw CLI::ValidationError("--function-constant", "expected NAME=VALUE or INDEX=VALUE, got '" + kv + "'");
             p->function_constants[kv.substr(0, eq)] = kv.substr(eq + 1);
           }
         },
         "Value of a function constant, by name or by its [[function_constant(index)]]: NAME=VALUE")
      ->type_name("NAME=VALUE");
}

// --kernel and --Werror, for the commands that translate files.
void add_translate_options(CLI::App* cmd, TranslateOptions* t, bool kernels) {
  add_front_end_options(cmd, &t->parse);
  if (kernels) cmd->add_option("--kernel", t->kernels, "Only this kernel (repeatable)");
  cmd->add_flag("--Werror", t->werror,
                "Fail when a kernel cannot be translated (by default it is left out, with a warning saying why)");
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread starts: libclang then parses on mslport's own large
  // translation stack (deeply nested input), not on an 8 MB thread of its own.
  mslport::front::parse_on_calling_thread();
  CLI::App app{"mslport " + std::string(kVersion) +
               ": port Metal (MSL) compute kernels to C++/OpenMP and OpenCL C, and check them against golden outputs"};
  app.require_subcommand(0, 1);
  bool show_include_dir = false, show_version = false;
  app.add_flag("--include-dir", show_include_dir, "Print the directory of the runtime header emitted C++ includes");
  bool show_python_dir = false;
  app.add_flag("--python-dir", show_python_dir,
               "Print the directory of the mslport_golden Python module (writes golden cases; add it to PYTHONPATH)");
  app.add_flag("--version", show_version, "Print the version");

  std::string file, target = "openmp", output;
  bool line_directives = false;
  auto* translate = app.add_subcommand("translate", "Translate one .metal file for one target");
  translate->add_option("file", file, "The .metal file")->required();
  translate->add_option("--target", target, "openmp or opencl")->check(CLI::IsMember({"openmp", "opencl"}));
  translate->add_option("-o,--output", output,
                        "Output path (default: stdout). openmp also writes PATH.h; opencl also writes "
                        "PATH.bindings.json; the pair is replaced together or not at all. Never the input. A device "
                        "or FIFO (/dev/null) is written through with one self-contained stream, as stdout is");
  translate->add_flag("--line-directives", line_directives, "Emit #line directives pointing at the .metal source");
  TranslateOptions translate_opt;
  add_translate_options(translate, &translate_opt, /*kernels=*/true);

  IrOptions ir_opt;
  auto* ir = app.add_subcommand("ir", "Print the kernel IR of a .metal file, or around the steps of a target's "
                                      "pipeline");
  ir->add_option("file", ir_opt.file, "The .metal file")->required();
  ir->add_option("--kernel", ir_opt.kernel, "Only this kernel");
  ir->add_option("--target", ir_opt.target, "The pipeline of --print-before/--print-after: openmp or opencl")
      ->check(CLI::IsMember({"openmp", "opencl"}))
      ->capture_default_str();
  ir->add_option("--print-before", ir_opt.print_before, "Print the IR before these steps (comma-separated; all)")
      ->delimiter(',');
  ir->add_option("--print-after", ir_opt.print_after, "Print the IR after these steps (comma-separated; all)")
      ->delimiter(',');
  ir->add_flag("--verify-each", ir_opt.verify_each, "Run the IR verifier after every step of the pipeline");
  ir->add_option("--sanitize", ir_opt.sanitize, "The OpenMP pipeline with the sanitizer's checks (as check)");
  add_front_end_options(ir, &ir_opt.parse);

  CheckOptions check_opt;
  auto* check = app.add_subcommand("check", "Run every golden case on the emitted kernels and compare");
  check->add_option("--src", check_opt.sources, "Sources: .metal files or directories (default: metal_src/)");
  check->add_option("--golden", check_opt.golden_dir, "Golden cases directory")->capture_default_str();
  check->add_option("--target", check_opt.target, "openmp, opencl or all")->capture_default_str();
  check->add_option("--platform", check_opt.platform, "OpenCL platform name substring (default: first platform)");
  check->add_option("--kernel", check_opt.kernels, "Only these kernels");
  add_translate_options(check, &check_opt.translate, /*kernels=*/false);
  check->add_option("--format", check_opt.format, "table or json")->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  check->add_option("--work-dir", check_opt.work_dir,
                    "Where emitted code is built and cached (default: $TMPDIR/mslport-UID)");
  check->add_option("--case-timeout", check_opt.case_timeout,
                    "Seconds a golden case may run before it is stopped and reported as timed out (0 = no limit)")
      ->capture_default_str();
  check->add_option("--sanitize", check_opt.sanitize,
                    "Run the C++/OpenMP output instrumented and report findings: comma-separated race, bounds, "
                    "init, divergence (findings make the exit status non-zero)");

  BenchOptions bench_opt;
  auto* bench = app.add_subcommand("bench", "Time the emitted kernels on bench cases against the memory roof (triad "
                                            "or device copy) measured in the same run");
  bench->add_option("--src", bench_opt.sources, "Sources: .metal files or directories (default: metal_src/)");
  add_bench_options(bench, &bench_opt.cli);
  add_translate_options(bench, &bench_opt.translate, /*kernels=*/false);

  std::vector<std::string> regen_src;
  std::string targets_dir = "targets";
  auto* regen = app.add_subcommand("regen", "Regenerate targets/ from metal_src/: targets/ then holds exactly the "
                                            "outputs of the sources (others are removed), replaced all or nothing");
  regen->add_option("sources", regen_src, "Sources (default: metal_src/)");
  regen->add_option("--targets", targets_dir, "Targets directory")->capture_default_str();
  regen->add_flag("--line-directives", line_directives, "Emit #line directives pointing at the .metal source");
  bool time_report = false, force = false;
  regen->add_flag("--time-report", time_report, "Print the wall time spent in each translation phase");
  regen->add_flag("--force", force, "Translate every source, even those unchanged since the last regen");
  TranslateOptions regen_opt;
  add_translate_options(regen, &regen_opt, /*kernels=*/false);

  auto* diff = app.add_subcommand("diff", "Compare what regen would write with targets/ (exit 1 on drift or on "
                                          "outputs no source writes)");
  diff->add_option("sources", regen_src, "Sources (default: metal_src/)");
  diff->add_option("--targets", targets_dir, "Targets directory")->capture_default_str();
  TranslateOptions diff_opt;
  add_translate_options(diff, &diff_opt, /*kernels=*/false);

  CLI11_PARSE(app, argc, argv);

  auto dispatch = [&]() -> int {
    if (show_version) {
      std::cout << "mslport " << kVersion << "\n";
      return 0;
    }
    if (show_include_dir) {
      std::cout << MSLPORT_INCLUDE_DIR << "\n";
      return 0;
    }
    if (show_python_dir) {
      std::cout << MSLPORT_PYTHON_DIR << "\n";
      return 0;
    }
    if (*translate) {
      translate_opt.line_directives = line_directives;
      return run_translate(file, target, output, translate_opt);
    }
    if (*ir) return run_ir(ir_opt);
    if (*check) {
      if (check_opt.sources.empty()) check_opt.sources = {"metal_src"};
      return run_check(check_opt);
    }
    if (*bench) {
      if (bench_opt.sources.empty()) bench_opt.sources = {"metal_src"};
      return run_bench(bench_opt);
    }
    if (*regen) {
      if (regen_src.empty()) regen_src = {"metal_src"};
      regen_opt.line_directives = line_directives;
      return run_regen(regen_src, targets_dir, regen_opt, time_report, force);
    }
    if (*diff) {
      if (regen_src.empty()) regen_src = {"metal_src"};
      return run_diff(regen_src, targets_dir, diff_opt);
    }
    std::cout << app.help();
    return 0;
  };
  // Every command reports its own errors; this is the net under them, so
  // that a file-system error nobody foresaw (a path that turned into a
  // file, a permission) is a message and exit status 2, never an abort.
  try {
    return dispatch();
  } catch (const std::exception& e) {
    std::cerr << "mslport: error: " << e.what() << "\n";
    return 2;
  }
}
