#include "back/opencl/bindings.h"

#include <nlohmann/json.hpp>

namespace mslport::back::opencl {

namespace {
using json = nlohmann::ordered_json;

json arg_json(const ir::Module& m, const ir::Kernel& k, const ClArg& a) {
  json j;
  switch (a.kind) {
    case ClArg::Kind::Buffer:
    case ClArg::Kind::ThreadgroupMemory:
      j["kind"] = a.kind == ClArg::Kind::Buffer ? "buffer" : "threadgroup_memory";
      j["index"] = k.params.at(a.param).index;
      j["name"] = k.params[a.param].name;
      break;
    case ClArg::Kind::SimdScratch:
      j["kind"] = "simd_scratch";
      j["bytes_per_thread"] = a.bytes_per_thread;
      break;
    case ClArg::Kind::Grid: j["kind"] = "grid"; break;
    case ClArg::Kind::FunctionConstant:
      // By value in `type`, except a bool (a uchar) and a half or bfloat (a float).
      j["kind"] = "function_constant";
      j["index"] = k.params.at(a.param).index;
      j["name"] = k.params[a.param].name;
      j["type"] = ir::type_name(m, k.params[a.param].type);
      break;
  }
  return j;
}
}  // namespace

// Laid out like docs/architecture.md: one argument per line, keys in a fixed order.
std::string bindings_json(const ir::Module& metal, const RaisedModule& raised, const std::string& source_name) {
  std::string out = "{\"source\": " + json(source_name).dump() + ", \"kernels\": [";
  for (size_t i = 0; i < raised.kernels.size(); ++i) {
    const ir::Kernel& k = metal.kernels.at(i);
    out += std::string(i ? "," : "") + "\n  {\"name\": " + json(k.name).dump() + ", \"args\": [";
    const auto& args = raised.kernels[i].args;
    for (size_t a = 0; a < args.size(); ++a) {
      std::string line = arg_json(metal, k, args[a]).dump();
      // {"kind":"buffer","index":0} -> {"kind": "buffer", "index": 0}
      std::string spaced;
      bool in_string = false, escaped = false;
      for (char ch : line) {
        if (in_string && !escaped && ch == '"') in_string = false;
        else if (!in_string && ch == '"') in_string = true;
        escaped = in_string && !escaped && ch == '\\';
        spaced += ch;
        if (!in_string && (ch == ':' || ch == ',')) spaced += ' ';
      }
      out += std::string(a ? "," : "") + "\n    " + spaced;
    }
    out += "\n  ]}";
  }
  out += "]}\n";
  return out;
}

}  // namespace mslport::back::opencl
