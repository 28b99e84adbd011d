#include "regen_manifest.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/atomic_file.h"

namespace mslport::tool {

namespace {
constexpr int kFormat = 2;  // format 1 was "STAMP SOURCE" lines
}

std::string manifest_path(const std::string& targets_dir) {
  return (std::filesystem::path(targets_dir) / ".regen-stamps").string();
}

std::string content_hash(const std::string& content) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : content) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%016llx-%zu", static_cast<unsigned long long>(h), content.size());
  return buf;
}

RegenManifest read_manifest(const std::string& targets_dir) {
  RegenManifest m;
  std::string text;
  if (!read_file(manifest_path(targets_dir), &text)) return m;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("format", 0) != kFormat || !j.contains("sources") || !j["sources"].is_object())
    return m;
  for (auto& [src, rec] : j["sources"].items()) {
    if (!rec.is_object() || !rec.contains("stamp") || !rec["stamp"].is_string() || !rec.contains("outputs") ||
        !rec["outputs"].is_object())
      continue;
    RegenRecord r;
    r.stamp = rec["stamp"].get<std::string>();
    bool ok = true;
    for (auto& [rel, hash] : rec["outputs"].items()) {
      if (!hash.is_string()) ok = false;
      else r.outputs[rel] = hash.get<std::string>();
    }
    if (ok) m[src] = std::move(r);
  }
  return m;
}

std::string format_manifest(const RegenManifest& m) {
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& [src, r] : m) sources[src] = {{"stamp", r.stamp}, {"outputs", r.outputs}};
  nlohmann::json j = {{"format", kFormat}, {"sources", sources}};
  // A source name that is not UTF-8 is stored with replacement characters;
  // it then never matches, and that source is translated every time.
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace mslport::tool
