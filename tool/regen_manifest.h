// What the last `mslport regen` wrote into a targets/ tree, so that the next
// one can skip translating a source that did not change. A skip is taken
// only when the source's content, the translator binary and the flags are
// as before AND every output still holds exactly what regen wrote (checked
// by content hash): a damaged or hand-edited target is regenerated.
// Kept in TARGETS/.regen-stamps (not committed; a fresh checkout simply
// translates everything).
#pragma once

#include <map>
#include <string>

namespace mslport::tool {

struct RegenRecord {
  std::string stamp;                           // source content + translator + flags
  std::map<std::string, std::string> outputs;  // targets-relative path -> content hash
};

// source path (as given to regen) -> record
using RegenManifest = std::map<std::string, RegenRecord>;

// The manifest's file in targets_dir.
std::string manifest_path(const std::string& targets_dir);
// An unreadable or old-format manifest reads as empty (everything is
// translated again); never an error.
RegenManifest read_manifest(const std::string& targets_dir);
std::string format_manifest(const RegenManifest& m);

// The content hash the manifest records (64-bit FNV-1a and the length).
std::string content_hash(const std::string& content);

}  // namespace mslport::tool
