// mslport: ports Metal compute kernels to C++/OpenMP and OpenCL C and
// proves the ports against golden outputs.
//
// Exit status (docs/cli.md#exit-status): 0 success, 1 errors (bad input, a
// failed check, drift), 2 usage (the command line itself is wrong).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "bench/isolated.h"
#include "cli_docs.h"
#include "commands.h"
#include "front/parse_metal.h"
#include "project.h"

using namespace mslport;
using namespace mslport::tool;

namespace {

// -I, -D, -U and --function-constant, as clang spells the first three.
void add_front_end_options(CLI::App* cmd, mslport::front::ParseOptions* p) {
  cmd->add_option("-I,--include-path", p->include_dirs,
                  "Search DIR for included files (after the including file's directory for \"quoted\" includes)")
      ->type_name("DIR");
  // In command-line order across both options, as clang applies them: each
  // occurrence is recorded as it is parsed.
  cmd->add_option_function<std::vector<std::string>>(
         "-D,--define",
         [p](const std::vector<std::string>& v) {
           for (auto& d : v) p->macros.push_back(mslport::front::define_macro(d));
         },
         "Define a macro: NAME or NAME=VALUE (with -U, applied in the order given)")
      ->type_name("MACRO")
      ->trigger_on_parse();
  cmd->add_option_function<std::vector<std::string>>(
         "-U,--undefine",
         [p](const std::vector<std::string>& v) {
           for (auto& u : v) p->macros.push_back(mslport::front::undefine_macro(u));
         },
         "Undefine a macro, Metal's predefined ones included (with -D, applied in the order given)")
      ->type_name("NAME")
      ->trigger_on_parse();
  cmd->add_option_function<std::vector<std::string>>(
         "--function-constant",
         [p](const std::vector<std::string>& v) {
           for (auto& kv : v) {
             auto eq = kv.find('=');
             if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
               throw CLI::ValidationError("--function-constant",
                                          "expected NAME=VALUE or INDEX=VALUE, got '" + kv + "'");
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

// CLI11 reports a bad command line with codes of its own (105, 106, 109,
// ...); mslport's convention is 2 for every usage error.
int usage_exit(const CLI::App& app, const CLI::ParseError& e) {
  int rc = app.exit(e);
  return rc == 0 ? 0 : 2;
}

bool color_wanted(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  // auto: a terminal that is not dumb, and no NO_COLOR (no-color.org).
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return ::isatty(2) && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

}  // namespace

int main(int argc, char** argv) {
  // `mslport bench` runs each target of each round in a process of its own: this one.
  if ((argc == 4 || argc == 6) && std::string(argv[1]) == mslport::bench::kWorkerFlag)
    return mslport::bench::bench_worker_main(argv[2], argv[3], argc == 6 ? std::atoi(argv[4]) : -1,
                                             argc == 6 ? std::atoi(argv[5]) : -1);
  // Before any thread starts: libclang then parses on mslport's own large
  // translation stack (deeply nested input), not on an 8 MB thread of its own.
  mslport::front::parse_on_calling_thread();
  CLI::App app{"mslport " + std::string(kVersion) +
               ": port Metal (MSL) compute kernels to C++/OpenMP and OpenCL C, and check them against golden outputs"};
  app.require_subcommand(0, 1);
  // The options of the program itself may also follow a command
  // (`mslport check --color=never`).
  app.fallthrough();
  bool show_include_dir = false, show_version = false, show_cxx = false, show_cflags = false;
  app.add_flag("--include-dir", show_include_dir, "Print the directory of the runtime header emitted C++ includes");
  app.add_flag("--cxx", show_cxx, "Print the C++ compiler `check` builds emitted C++ with (MSLPORT_CXX overrides it)");
  app.add_flag("--cflags", show_cflags,
               "Print the flags `check` compiles emitted C++ with (for the --cxx compiler; link with -fopenmp)");
  bool show_python_dir = false;
  app.add_flag("--python-dir", show_python_dir,
               "Print the directory of the mslport_golden Python module (writes golden cases; add it to PYTHONPATH)");
  app.add_flag("--version", show_version, "Print the version");
  ProjectOptions project_opt;
  app.add_option("--project", project_opt.file,
                 "The project file (default: mslport.toml in the current folder or the nearest folder above)")
      ->type_name("FILE");
  app.add_flag("--no-project", project_opt.none, "Read no project file")->envname("MSLPORT_NO_PROJECT");
  std::string color = "auto", diag_format = "text";
  app.add_option("--color", color, "Colour diagnostics: auto (on a terminal), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("--diagnostics-format", diag_format,
                 "Diagnostics as text, or as one JSON or SARIF 2.1.0 document on stderr at exit")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();

  std::string file, target = "openmp", output, bindings_out;
  bool line_directives = false;
  auto* translate = app.add_subcommand("translate", "Translate one .metal file for one target");
  translate->add_option("file", file, "The .metal file; - reads standard input")->required();
  translate->add_option("--target", target, "openmp or opencl")
      ->check(CLI::IsMember({"openmp", "opencl"}))
      ->capture_default_str();
  translate->add_option("-o,--output", output,
                        "Output path; - (the default) is stdout. openmp also writes PATH.h; opencl also writes "
                        "PATH.bindings.json; the pair is replaced together or not at all. Never the input. A device "
                        "or FIFO (/dev/null) is written through with one self-contained stream, as stdout is");
  translate
      ->add_option("--bindings", bindings_out,
                   "opencl: where the kernels' argument description goes (default: beside -o as "
                   "PATH.bindings.json; with stdout, only where this says)")
      ->type_name("FILE");
  translate->add_flag("--line-directives", line_directives, "Emit #line directives pointing at the .metal source");
  TranslateOptions translate_opt;
  add_translate_options(translate, &translate_opt, /*kernels=*/true);

  IrOptions ir_opt;
  auto* ir = app.add_subcommand("ir",
                                "Print the kernel IR of a .metal file, or around the steps of a target's "
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
  auto* check = app.add_subcommand("check",
                                   "Run every golden case of the sources' kernels on the emitted kernels "
                                   "and compare");
  check->add_option("--src", check_opt.sources,
                    "Sources: .metal files or directories (default: the project file's sources)");
  check->add_option("--golden", check_opt.golden_dir, "Golden cases directory (default: the project's, else golden)");
  check->add_option("--target", check_opt.target, "openmp, opencl or all")
      ->check(CLI::IsMember({"openmp", "opencl", "all"}))
      ->capture_default_str();
  check->add_option("--platform", check_opt.platform, "OpenCL platform name substring (default: first platform)");
  check->add_option("--kernel", check_opt.kernels, "Only these kernels");
  add_translate_options(check, &check_opt.translate, /*kernels=*/false);
  check->add_option("--format", check_opt.format, "table, json or junit (JUnit XML, for CI systems)")
      ->check(CLI::IsMember({"table", "json", "junit"}))
      ->capture_default_str();
  check->add_option("--work-dir", check_opt.work_dir,
                    "Where emitted code is built and cached (default: $TMPDIR/mslport-UID)");
  check
      ->add_option("--case-timeout", check_opt.case_timeout,
                   "Seconds a golden case may run before it is stopped and reported as timed out (0 = no limit)")
      ->capture_default_str();
  check->add_option("--sanitize", check_opt.sanitize,
                    "Run the C++/OpenMP output instrumented and report findings: comma-separated race, bounds, "
                    "init, divergence (findings make the exit status non-zero)");
  check->add_flag("--differential", check_opt.differential,
                  "Also run the cases that give inputs only: C++/OpenMP against OpenCL, element by element within "
                  "the case's tolerance, and the sanitizer on the C++/OpenMP side");
  check->add_flag("--allow-missing-cases", check_opt.allow_missing_cases,
                  "A kernel of the sources without a golden case is a warning, not a failure");
  check->add_flag("--allow-other-cases", check_opt.allow_other_cases,
                  "Golden cases of kernels that are not in the sources are skipped, not a failure");

  BenchOptions bench_opt;
  auto* bench = app.add_subcommand("bench",
                                   "Time the emitted kernels on bench cases against the memory roof (triad "
                                   "or device copy) measured in the same run");
  bench->add_option("--src", bench_opt.sources,
                    "Sources: .metal files or directories (default: the project file's sources)");
  add_bench_options(bench, &bench_opt.cli);
  add_translate_options(bench, &bench_opt.translate, /*kernels=*/false);

  std::vector<std::string> regen_src;
  std::string targets_dir;
  auto* regen = app.add_subcommand("regen",
                                   "Regenerate the targets directory from the sources: it then holds "
                                   "exactly their outputs (others are removed), replaced all or nothing");
  regen->add_option("sources", regen_src, "Sources (default: the project file's sources)");
  regen->add_option("--targets", targets_dir, "Targets directory (default: the project's, else targets)");
  regen->add_flag("--line-directives", line_directives, "Emit #line directives pointing at the .metal source");
  bool time_report = false, force = false;
  regen->add_flag("--time-report", time_report, "Print the wall time spent in each translation phase");
  regen->add_flag("--force", force, "Translate every source, even those unchanged since the last regen");
  TranslateOptions regen_opt;
  add_translate_options(regen, &regen_opt, /*kernels=*/false);

  auto* diff = app.add_subcommand("diff",
                                  "Compare what regen would write with the targets directory (exit 1 on "
                                  "drift or on outputs no source writes)");
  diff->add_option("sources", regen_src, "Sources (default: the project file's sources)");
  diff->add_option("--targets", targets_dir, "Targets directory (default: the project's, else targets)");
  TranslateOptions diff_opt;
  add_translate_options(diff, &diff_opt, /*kernels=*/false);

  InitOptions init_opt;
  auto* init = app.add_subcommand("init", "Write a project file, mslport.toml, for the kernels in this folder");
  init->add_option("--src", init_opt.sources, "Source globs, files or folders (default: where .metal files are)");
  init->add_option("-I,--include-path", init_opt.include_dirs, "Include directories")->type_name("DIR");
  init->add_option("-D,--define", init_opt.defines, "Macros: NAME or NAME=VALUE")->type_name("MACRO");
  init->add_option("--golden", init_opt.golden_dir, "Golden cases directory")->capture_default_str();
  init->add_option("--targets", init_opt.targets_dir, "Targets directory")->capture_default_str();
  init->add_option("-o,--output", init_opt.output, "Where to write it")->capture_default_str();
  init->add_flag("--force", init_opt.force, "Replace an existing project file");

  NewCaseOptions new_case_opt;
  auto* new_case = app.add_subcommand(
      "new-case",
      "Write a case.json skeleton for a kernel from its signature (buffers with index, name, access and "
      "dtype; placeholders for sizes and dispatch)");
  new_case->add_option("kernel", new_case_opt.kernel, "The kernel")->required();
  new_case->add_option("--src", new_case_opt.source,
                       "The .metal file that defines it (default: the project's "
                       "sources)");
  new_case->add_option("--case", new_case_opt.case_name, "The case's name")->capture_default_str();
  new_case->add_option("-o,--output", new_case_opt.output,
                       "The case's folder, or - for stdout (default: GOLDEN/KERNEL/CASE)");
  new_case->add_flag("--force", new_case_opt.force, "Replace an existing case.json");
  new_case->add_flag("--inputs-only", new_case_opt.inputs_only,
                     "A case that gives inputs only (outputs by dtype and shape, no expected values), for "
                     "check --differential");
  add_front_end_options(new_case, &new_case_opt.parse);

  std::string help_topic;
  auto* help = app.add_subcommand("help", "Print the help of mslport or of one of its commands");
  help->add_option("command", help_topic, "The command");
  std::string completion_shell;
  auto* completion = app.add_subcommand("completion",
                                        "Print a shell completion script (bash or zsh): "
                                        "source <(mslport completion bash)");
  completion->add_option("shell", completion_shell, "bash or zsh")->check(CLI::IsMember({"bash", "zsh"}))->required();
  std::string man_output;
  auto* man = app.add_subcommand("man", "Print the manual page, made from this help (roff: man -l FILE)");
  man->add_option("-o,--output", man_output, "Write it to FILE instead of stdout")->type_name("FILE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return usage_exit(app, e);
  }

  DiagStyle style;
  style.format = diag_format == "json"    ? DiagFormat::Json
                 : diag_format == "sarif" ? DiagFormat::Sarif
                                          : DiagFormat::Text;
  style.color = style.format == DiagFormat::Text && color_wanted(color);
  set_diagnostic_style(style);

  auto dispatch = [&]() -> int {
    if (show_version) {
      std::cout << "mslport " << kVersion << "\n";
      return 0;
    }
    if (show_include_dir) return print_host_info(HostInfo::IncludeDir);
    if (show_cxx) return print_host_info(HostInfo::Cxx);
    if (show_cflags) return print_host_info(HostInfo::Cflags);
    if (show_python_dir) return print_host_info(HostInfo::PythonDir);
    if (*help) {
      if (help_topic.empty()) {
        std::cout << app.help();
        return 0;
      }
      for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name() == help_topic) {
          std::cout << sub->help(app.get_name());
          return 0;
        }
      ToolMessage(Severity::Error) << "no command '" << help_topic << "' (commands: " << command_list(app) << ")";
      return 2;
    }
    if (*completion) {
      std::cout << completion_script(app, completion_shell);
      return 0;
    }
    if (*man) return write_man_page(app, man_output);
    if (*translate) {
      translate_opt.line_directives = line_directives;
      return run_translate(file, target, output, bindings_out, translate_opt);
    }
    if (*ir) return run_ir(ir_opt);
    if (*init) return run_init(init_opt);

    // The commands that work on a kernel library read its project file.
    std::optional<ProjectFile> project;
    if (!resolve_project(project_opt, &project)) return 1;
    if (*new_case) return run_new_case(new_case_opt, project);
    if (*check) {
      if (int rc = resolve_sources(check_opt.sources, project, "check", "--src FILE|DIR", &check_opt.sources))
        return rc;
      if (project) apply_project(*project, &check_opt.translate);
      if (check_opt.golden_dir.empty())
        check_opt.golden_dir = project && !project->golden_dir.empty() ? shown_path(project->golden_dir) : "golden";
      if (check_opt.platform.empty() && project) check_opt.platform = project->platform;
      return run_check(check_opt);
    }
    if (*bench) {
      if (int rc = resolve_sources(bench_opt.sources, project, "bench", "--src FILE|DIR", &bench_opt.sources))
        return rc;
      if (project) {
        apply_project(*project, &bench_opt.translate);
        if (bench_opt.cli.platforms.empty() && !project->platform.empty())
          bench_opt.cli.platforms = {project->platform};
      }
      return run_bench(bench_opt);
    }
    if (*regen || *diff) {
      const char* command = *regen ? "regen" : "diff";
      if (int rc = resolve_sources(regen_src, project, command, "SOURCES...", &regen_src)) return rc;
      if (targets_dir.empty())
        targets_dir = project && !project->targets_dir.empty() ? shown_path(project->targets_dir) : "targets";
      if (*regen) {
        if (project) apply_project(*project, &regen_opt);
        regen_opt.line_directives = line_directives;
        return run_regen(regen_src, targets_dir, regen_opt, time_report, force);
      }
      if (project) apply_project(*project, &diff_opt);
      return run_diff(regen_src, targets_dir, diff_opt);
    }
    std::cout << app.help();
    return 0;
  };
  // Every command reports its own errors; this is the net under them, so
  // that a file-system error nobody foresaw (a path that turned into a
  // file, a permission) is a message and exit status 1, never an abort.
  int rc;
  try {
    rc = dispatch();
  } catch (const std::exception& e) {
    ToolMessage(Severity::Error) << e.what();
    rc = 1;
  }
  std::cerr << diagnostics_document("mslport", kVersion);
  return rc;
}
