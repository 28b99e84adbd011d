// `mslport new-case KERNEL`: a golden case's case.json skeleton, written
// from the kernel's signature. Every buffer gets its index, name, access
// (from what the kernel does with it: ir/analysis/buffer_access.h) and
// dtype; what only the user knows (sizes, the dispatch, tolerances) is a
// "TODO: ..." string, which the case loader refuses until it is filled in.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "front/parse_metal.h"
#include "ir/analysis/buffer_access.h"
#include "passes/flatten_argument_buffers.h"
#include "passes/inline_functions.h"
#include "project.h"
#include "support/atomic_file.h"
#include "support/large_stack.h"

namespace fs = std::filesystem;
using nlohmann::ordered_json;

namespace mslport::tool {

namespace {

// NumPy's name of a scalar type as case files store it.
std::string scalar_dtype(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::Bool: return "|b1";
    case ir::ScalarKind::Char: return "|i1";
    case ir::ScalarKind::UChar: return "|u1";
    case ir::ScalarKind::Short: return "<i2";
    case ir::ScalarKind::UShort: return "<u2";
    case ir::ScalarKind::Int: return "<i4";
    case ir::ScalarKind::UInt: return "<u4";
    case ir::ScalarKind::Long: return "<i8";
    case ir::ScalarKind::ULong: return "<u8";
    case ir::ScalarKind::Half: return "<f2";
    case ir::ScalarKind::BFloat: return "<u2";  // bit patterns
    case ir::ScalarKind::Float: return "<f4";
  }
  return "<f4";
}

// A structured dtype in NumPy's descr notation, fields at Metal's offsets
// (padding as unnamed void fields, as NumPy writes aligned structs).
std::string struct_dtype(const ir::Module& m, const ir::StructDef& s);

std::string field_dtype(const ir::Module& m, const ir::Type& t) {
  switch (t.kind) {
    case ir::Type::Kind::Scalar: return "'" + scalar_dtype(t.scalar) + "'";
    case ir::Type::Kind::Vector:
      return "'" + scalar_dtype(t.scalar) + "', (" + std::to_string(t.count == 3 ? 4 : t.count) + ",)";
    case ir::Type::Kind::Pointer: return "'<u8'";  // an address the host stores
    case ir::Type::Kind::Array:
      if (t.elem && (t.elem->is_scalar() || t.elem->is_vector())) {
        int lanes = t.elem->is_vector() ? (t.elem->count == 3 ? 4 : t.elem->count) : 1;
        return "'" + scalar_dtype(t.elem->scalar) + "', (" + std::to_string(t.count * lanes) + ",)";
      }
      return "'|V" + std::to_string(ir::type_size(m, t)) + "'";
    case ir::Type::Kind::Struct: return struct_dtype(m, m.structs[t.struct_index]);
    default: return "'|V" + std::to_string(ir::type_size(m, t)) + "'";
  }
}

std::string struct_dtype(const ir::Module& m, const ir::StructDef& s) {
  std::string out = "[";
  int at = 0, pad = 0;
  auto add = [&](const std::string& name, const std::string& dtype) {
    if (out.size() > 1) out += ", ";
    out += "('" + name + "', " + dtype + ")";
  };
  for (const auto& f : s.fields) {
    if (f.offset > at) add("pad" + std::to_string(pad++), "'|V" + std::to_string(f.offset - at) + "'");
    add(f.name, field_dtype(m, f.type));
    at = f.offset + ir::type_size(m, f.type);
  }
  int size = ir::type_size(m, ir::Type::struct_of(static_cast<int>(&s - m.structs.data())));
  if (size > at) add("pad" + std::to_string(pad++), "'|V" + std::to_string(size - at) + "'");
  return out + "]";
}

// dtype and, for a constant, the shape; what the dtype alone does not say
// goes to *notes.
void describe(const ir::Module& m, const ir::Type& t, ordered_json* buf, bool scalar_constant,
              std::vector<std::string>* notes) {
  const std::string name = (*buf)["name"].get<std::string>();
  if (t.is_scalar()) {
    (*buf)["dtype"] = scalar_dtype(t.scalar);
    if (scalar_constant) (*buf)["shape"] = {1};
    if (t.scalar == ir::ScalarKind::BFloat) notes->push_back(name + " is bfloat: its bit patterns, as <u2");
  } else if (t.is_vector()) {
    (*buf)["dtype"] = scalar_dtype(t.scalar);
    int lanes = t.count == 3 ? 4 : t.count;
    if (scalar_constant) (*buf)["shape"] = {1, lanes};
    else
      notes->push_back(name + " holds " + ir::type_name(m, t) + ": " + std::to_string(lanes) + " elements each" +
                       (t.count == 3 ? " (Metal pads 3-component vectors to 4)" : ""));
  } else if (t.is_struct()) {
    (*buf)["dtype"] = struct_dtype(m, m.structs[t.struct_index]);
    if (scalar_constant) (*buf)["shape"] = {1};
    notes->push_back(name + " holds struct " + m.structs[t.struct_index].name + " (" +
                     std::to_string(ir::type_size(m, t)) + " bytes, Metal's layout)");
  } else {
    (*buf)["dtype"] = "TODO: the NumPy dtype of " + ir::type_name(m, t);
  }
}

ordered_json skeleton(const ir::Module& m, const ir::Kernel& k, const std::string& case_name, bool inputs_only) {
  std::vector<ir::analysis::BufferAccess> access = ir::analysis::buffer_accesses(k);
  ordered_json doc;
  doc["kernel"] = k.name;
  doc["case"] = case_name;
  doc["description"] = "TODO: what this case exercises (sizes, edge cases)";
  int tptg = k.max_total_threads_per_threadgroup > 0 ? std::min(k.max_total_threads_per_threadgroup, 256) : 256;
  doc["dispatch"] = {{"threadgroups", {"TODO: threadgroups in x", 1, 1}}, {"threads_per_threadgroup", {tptg, 1, 1}}};
  ordered_json buffers = ordered_json::array(), tg = ordered_json::array(), constants = ordered_json::object();
  std::vector<std::string> notes;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (p.kind == ir::Param::Kind::FunctionConstant) {
      constants[p.name] = "TODO: the " + ir::type_name(m, p.type) + " value of [[function_constant(" +
                          std::to_string(p.index) + ")]], which the host sets";
      continue;
    }
    if (p.kind == ir::Param::Kind::ThreadgroupMemory) {
      tg.push_back({{"index", p.index}, {"bytes", "TODO: bytes of threadgroup memory, a multiple of 16"}});
      continue;
    }
    if (p.kind != ir::Param::Kind::Buffer && p.kind != ir::Param::Kind::ConstantRef &&
        p.kind != ir::Param::Kind::ConstantValue)
      continue;
    ordered_json b;
    b["index"] = p.index;
    if (p.argument_buffer_offset >= 0) {
      b["argument_buffer_offset"] = p.argument_buffer_offset;
      notes.push_back(p.name + " is a buffer whose address argument buffer(" + std::to_string(p.index) + ") holds " +
                      std::to_string(p.argument_buffer_offset) + " bytes in (the runner stores it there)");
    }
    b["name"] = p.name;
    if (!p.present_if.empty())
      notes.push_back(p.name + " exists only where " + p.present_if + " is true: leave it out of a case that sets " +
                      p.present_if + " false");
    std::string acc = "read";
    if (p.kind == ir::Param::Kind::Buffer) {
      const bool writable = p.type.is_pointer() && !p.type.is_const && p.type.space == ir::AddressSpace::Device;
      if (writable && access[i].written) acc = access[i].read ? "read_write" : "write";
    }
    b["access"] = acc;
    const ir::Type& t = p.type.is_pointer() && p.type.elem ? *p.type.elem : p.type;
    describe(m, t, &b, p.kind != ir::Param::Kind::Buffer, &notes);
    if (acc != "write") b["data"] = p.name + ".npy";
    if (acc != "read") {
      if (inputs_only) {
        if (acc == "write") b["shape"] = {"TODO: the output's shape"};
      } else {
        b["expected"] = p.name + ".expected.npy";
      }
      const bool exact =
          !(t.is_scalar() || t.is_vector()) || !(t.scalar == ir::ScalarKind::Float || t.scalar == ir::ScalarKind::Half);
      b["atol"] = exact ? ordered_json(0) : ordered_json("TODO: absolute tolerance");
      b["rtol"] = exact ? ordered_json(0) : ordered_json("TODO: relative tolerance");
      b["tolerance_note"] = exact ? "integer or bit-pattern output: compared exactly"
                                  : "TODO: why this tolerance (an error bound of the kernel's arithmetic)";
    }
    buffers.push_back(std::move(b));
  }
  if (!notes.empty()) {
    std::string d = doc["description"].get<std::string>() + ". Types:";
    for (size_t i = 0; i < notes.size(); ++i) d += (i ? "; " : " ") + notes[i];
    doc["description"] = d;
  }
  doc["buffers"] = std::move(buffers);
  if (!tg.empty()) doc["threadgroup_memory"] = std::move(tg);
  if (!constants.empty()) doc["function_constants"] = std::move(constants);
  return doc;
}

int new_case_on_this_stack(const NewCaseOptions& o, const std::optional<ProjectFile>& project) {
  front::ParseOptions parse = o.parse;
  if (project) {
    TranslateOptions t;
    t.parse = parse;
    apply_project(*project, &t);
    parse = t.parse;
  }
  std::vector<std::string> sources;
  if (!o.source.empty()) {
    sources = {o.source};
  } else if (int rc = resolve_sources({}, project, "new-case", "--src FILE", &sources)) {
    return rc;
  }
  std::string tried;
  for (const auto& src : sources) {
    DiagEngine diags;
    std::vector<SkippedKernel> skipped;
    auto m = front::parse_metal_file(src, diags, parse, &skipped);
    if (!m) {
      if (!o.source.empty()) {
        diags.print_all(std::cerr);
        return 1;
      }
      continue;
    }
    const ir::Kernel* found = m->find_kernel(o.kernel);
    if (!found) {
      for (auto& s : skipped)
        if (s.name == o.kernel) {
          for (auto& r : s.reasons) emit_diagnostic(r, std::cerr);
          ToolMessage(Severity::Error, "mslport new-case")
              << "kernel '" << o.kernel << "' of " << src << " cannot be read (see above)";
          return 1;
        }
      for (auto& k : m->kernels) tried += " " + k.name;
      continue;
    }
    ir::Kernel k = ir::clone_kernel(*found);
    DiagEngine inl;
    // With its helpers inlined and its argument buffers' pointers as
    // buffers, as the backends see it.
    if (!passes::inline_functions(*m, k, inl) || !passes::flatten_argument_buffers(*m, k, inl)) {
      inl.print_all(std::cerr);
      return 1;
    }
    std::string text = skeleton(*m, k, o.case_name, o.inputs_only).dump(2) + "\n";
    if (o.output == "-") {
      std::cout << text;
      return 0;
    }
    std::string dir = o.output;
    if (dir.empty()) {
      std::string golden = project && !project->golden_dir.empty() ? shown_path(project->golden_dir) : "golden";
      dir = (fs::path(golden) / o.kernel / o.case_name).string();
    }
    fs::path file = fs::path(dir) / "case.json";
    std::error_code ec;
    if (fs::exists(file, ec) && !o.force) {
      ToolMessage(Severity::Error, "mslport new-case") << file.string() << " exists (--force replaces it)";
      return 1;
    }
    fs::create_directories(dir, ec);
    std::string err;
    if (ec || !write_file_atomic(file.string(), text, &err)) {
      ToolMessage(Severity::Error, "mslport new-case") << (ec ? "cannot create " + dir + ": " + ec.message() : err);
      return 1;
    }
    std::cerr << "mslport new-case: wrote " << file.string() << " (kernel " << o.kernel << " of " << src
              << "); replace its TODO values, then write the .npy files it names\n";
    return 0;
  }
  ToolMessage(Severity::Error, "mslport new-case")
      << "no kernel named '" << o.kernel << "' in " << (o.source.empty() ? "the project's sources" : o.source)
      << (tried.empty() ? "" : " (kernels:" + tried + ")");
  return 1;
}

}  // namespace

int run_new_case(const NewCaseOptions& options, const std::optional<ProjectFile>& project) {
  int status = 1;
  run_with_stack(kTranslationStackBytes, [&] { status = new_case_on_this_stack(options, project); });
  return status;
}

}  // namespace mslport::tool
