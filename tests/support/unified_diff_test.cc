// unified_diff: the format of `diff -u`, and hunks that turn the old text
// into the new one (checked by applying them).
#include "support/unified_diff.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

using mslport::unified_diff;

namespace {

// Applies a unified diff made by unified_diff to `old_text`.
std::string apply_patch(const std::string& old_text, const std::string& diff) {
  std::vector<std::string> old_lines;
  {
    std::istringstream in(old_text);
    for (std::string l; std::getline(in, l);) old_lines.push_back(l + "\n");
    if (!old_text.empty() && old_text.back() != '\n') old_lines.back().pop_back();
  }
  std::istringstream in(diff);
  std::string line, out;
  size_t next_old = 0;     // 0-based
  std::getline(in, line);  // ---
  std::getline(in, line);  // +++
  std::string* last = nullptr;
  while (std::getline(in, line)) {
    if (line.rfind("@@ -", 0) == 0) {
      size_t start = std::stoul(line.substr(4));
      size_t comma = line.find(',', 4), space = line.find(' ', 4);
      size_t count = comma < space ? std::stoul(line.substr(comma + 1)) : 1;
      size_t first = count == 0 ? start : start - 1;
      while (next_old < first) out += old_lines[next_old++];
      continue;
    }
    if (line == "\\ No newline at end of file") {
      if (last && !last->empty() && last->back() == '\n') last->pop_back();
      continue;
    }
    char tag = line[0];
    std::string body = line.substr(1) + "\n";
    if (tag == ' ' || tag == '-') ++next_old;
    if (tag == ' ' || tag == '+') {
      out += body;
      last = &out;
    } else {
      last = nullptr;
    }
  }
  while (next_old < old_lines.size()) out += old_lines[next_old++];
  return out;
}

}  // namespace

TEST(UnifiedDiff, EqualTextsGiveNothing) { EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x", "y"), ""); }

TEST(UnifiedDiff, OneChangedLineAsDiffPrintsIt) {
  // What GNU diff -u prints for the same two files.
  std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n", b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff(a, b, "a.cpp (committed)", "a.cpp (regenerated)"),
            "--- a.cpp (committed)\n+++ a.cpp (regenerated)\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, NewAndRemovedFilesAndMissingNewline) {
  EXPECT_EQ(unified_diff("", "x\ny\n", "/dev/null", "new"), "--- /dev/null\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  EXPECT_EQ(unified_diff("x\n", "", "old", "/dev/null"), "--- old\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb", "o", "n"),
            "--- o\n+++ n\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, DistantChangesGetTwoHunks) {
  std::string a, b;
  for (int i = 0; i < 40; ++i) {
    a += std::to_string(i) + "\n";
    b += (i == 5 || i == 30 ? "x" : std::to_string(i)) + "\n";
  }
  std::string d = unified_diff(a, b, "o", "n");
  EXPECT_NE(d.find("@@ -3,7 +3,7 @@"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -28,7 +28,7 @@"), std::string::npos) << d;
}

TEST(UnifiedDiff, RandomEditsApplyBack) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string a, b;
    int n = int(rng() % 60);
    for (int i = 0; i < n; ++i) {
      std::string line = std::string(1, char('a' + rng() % 4)) + "\n";
      a += line;
      switch (rng() % 5) {
        case 0: break;                                            // deleted
        case 1: b += line + char('a' + rng() % 4) + "\n"; break;  // a line inserted after
        case 2: b += "z\n"; break;                                // replaced
        default: b += line;
      }
    }
    if (rng() % 3 == 0 && !b.empty()) b.pop_back();  // no newline at the end
    std::string d = unified_diff(a, b, "o", "n");
    if (a == b) {
      EXPECT_EQ(d, "");
      continue;
    }
    EXPECT_EQ(apply_patch(a, d), b) << "old:\n" << a << "\nnew:\n" << b << "\ndiff:\n" << d;
  }
}

TEST(UnifiedDiff, HugeRewritesStayCorrect) {
  // More edits than the shortest-script search keeps state for.
  std::string a, b;
  for (int i = 0; i < 6000; ++i) {
    a += "old " + std::to_string(i) + "\n";
    b += "new " + std::to_string(i) + "\n";
  }
  std::string d = unified_diff(a, b, "o", "n");
  EXPECT_EQ(apply_patch(a, d), b);
}
