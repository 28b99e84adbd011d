// Loading golden cases (golden/<kernel>/<case>/case.json + .npy arrays); the
// format is in docs/golden-format.md. The types live in runtime/runner.h.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/runner.h"

namespace mslport::runtime {

// A case.json is a page of JSON; one larger than this is not a case.
constexpr size_t kMaxCaseJsonBytes = 1 << 20;
// The largest output a case of inputs only may declare by dtype and shape.
constexpr uint64_t kMaxDeclaredOutputBytes = uint64_t{1} << 32;

// Loads one case.json. On a malformed case returns false and fills *error
// with the file at fault (the case.json, or the .npy a field names) and a
// message that names the field (e.g. "buffers[1].expected: ...").
// The .npy files are checked (exist, readable header, sizes consistent) but
// their data is not kept; executors read them when they run the case.
bool load_golden_case(const std::string& case_json_path, GoldenCase* out, LoadError* error);

// Same, from JSON text; `dir` resolves relative .npy paths and `file` names
// the source in errors.
bool parse_golden_case(const std::string& json_text, const std::string& dir, const std::string& file, GoldenCase* out,
                       LoadError* error);

const char* access_name(Access a);

}  // namespace mslport::runtime
