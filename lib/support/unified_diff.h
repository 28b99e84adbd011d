// A unified diff (`diff -u`'s format) of two texts, computed in-process:
// `mslport diff` shows drift in targets/ without running diff(1) through a
// shell, so no file name is ever interpreted.
#pragma once

#include <string>

namespace mslport {

// Empty when the texts are equal. Otherwise "--- old_label", "+++ new_label"
// and hunks with `context` lines around each change; a last line without a
// newline is marked "\ No newline at end of file". The edit script is a
// shortest one (Myers' O(ND) algorithm) unless the texts differ in more than
// a few thousand lines, where the differing middle is shown as one removal
// and one insertion (still a correct diff, only not a minimal one).
std::string unified_diff(const std::string& old_text, const std::string& new_text, const std::string& old_label,
                         const std::string& new_label, int context = 3);

}  // namespace mslport
