// The diagnostic engine: formatting, notes, -Werror, the error cap, clang-style rendering with
// caret and underline, JSON, and sanitizing of text that would otherwise reach a terminal raw.
#include "ir/DiagnosticVerifier.h"
#include "ir/Diagnostics.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

using namespace qspec;

TEST(Diagnostics, FormatReplacesNumberedArguments) {
  EXPECT_EQ(formatDiag("a '%0' b '%1' again '%0'", {"x", "y"}), "a 'x' b 'y' again 'x'");
  // A missing argument becomes empty; a lone % stays.
  EXPECT_EQ(formatDiag("%0 and %1 at 100%", {"one"}), "one and  at 100%");
}

TEST(Diagnostics, TableIDsAreUniqueAndFollowTheSeverityPrefix) {
  std::set<std::string> seen;
  for (DiagID id : allDiagIDs()) {
    const DiagInfo &info = diagInfo(id);
    std::string name = info.id;
    EXPECT_TRUE(seen.insert(name).second) << name;
    std::string prefix = name.substr(0, name.find('_') + 1);
    switch (info.severity) {
    case Severity::Error:
    case Severity::Fatal:
      EXPECT_EQ(prefix, "err_") << name;
      break;
    case Severity::Warning:
      EXPECT_EQ(prefix, "warn_") << name;
      break;
    case Severity::Note:
      EXPECT_EQ(prefix, "note_") << name;
      break;
    case Severity::Remark:
      EXPECT_EQ(prefix, "remark_") << name;
      break;
    default:
      ADD_FAILURE() << name;
    }
    // House style: lowercase first word (an acronym such as AMCT or INT16 is fine), no
    // trailing period.
    std::string fmt = info.format;
    ASSERT_FALSE(fmt.empty()) << name;
    std::string first = fmt.substr(0, fmt.find(' '));
    bool capitalized = first[0] >= 'A' && first[0] <= 'Z' &&
                       first.find_first_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos;
    EXPECT_FALSE(capitalized) << name << ": " << fmt;
    EXPECT_NE(fmt.back(), '.') << name;
  }
}

TEST(Diagnostics, RendersClangStyleWithCaretAndUnderline) {
  SourceManager sm;
  FileID f = sm.addFile("spec.qspec", "qspec 1\noverride type Linear { tier int7 }\n");
  DiagnosticEngine diags(sm);
  // "int7" is at columns 29-32 of line 2.
  SourceRange r = sm.lineRange(f, 2, 29, 4);
  Diagnostic &d = diags.report(DiagID::err_unknown_tier, r, {"int7", "int8"});
  diags.note(d, DiagID::note_previous_decl, sm.lineRange(f, 1, 1, 5));
  std::ostringstream os;
  diags.printText(os);
  EXPECT_EQ(os.str(),
            "spec.qspec:2:29: error: unknown tier 'int7'; known tiers are int8 [err_unknown_tier]\n"
            "override type Linear { tier int7 }\n"
            "                            ^~~~\n"
            "spec.qspec:1:1: note: previous declaration is here\n"
            "qspec 1\n"
            "^~~~~\n"
            "1 error generated.\n");
}

TEST(Diagnostics, NoLocationPrintsNoSourceLine) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.report(DiagID::err_explain_needs_inventory, SourceRange{});
  std::ostringstream os;
  diags.printText(os);
  EXPECT_EQ(os.str().substr(0, 7), "error: ");
  EXPECT_NE(os.str().find("[err_explain_needs_inventory]\n1 error generated.\n"),
            std::string::npos);
}

TEST(Diagnostics, WerrorTurnsWarningsIntoErrors) {
  SourceManager sm;
  DiagnosticEngine plain(sm), strict(sm);
  strict.setWarningsAsErrors(true);
  plain.report(DiagID::warn_pattern_matches_nothing, SourceRange{}, {"x"});
  strict.report(DiagID::warn_pattern_matches_nothing, SourceRange{}, {"x"});
  EXPECT_FALSE(plain.hasErrors());
  EXPECT_EQ(plain.warningCount(), 1u);
  EXPECT_TRUE(strict.hasErrors());
  EXPECT_EQ(strict.warningCount(), 0u);
  EXPECT_EQ(strict.diagnostics().front().severity, Severity::Error);
  // The ID stays the warning's, so a user can see which warning it was.
  EXPECT_EQ(strict.diagnostics().front().code, "warn_pattern_matches_nothing");
}

TEST(Diagnostics, ErrorCapStopsRecordingButKeepsCounting) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setErrorLimit(3);
  for (int i = 0; i < 10; ++i)
    diags.report(DiagID::err_syntax, SourceRange{}, {"e" + std::to_string(i)});
  ASSERT_EQ(diags.diagnostics().size(), 4u); // three errors, then the fatal "too many errors"
  EXPECT_EQ(diags.diagnostics().back().code, "err_too_many_errors");
  EXPECT_EQ(diags.diagnostics().back().severity, Severity::Fatal);
  EXPECT_EQ(diags.errorCount(), 10u);
  // A note on a dropped diagnostic must not crash or print.
  Diagnostic &dropped = diags.report(DiagID::err_syntax, SourceRange{}, {"late"});
  diags.note(dropped, DiagID::note_previous_decl, SourceRange{});
  EXPECT_EQ(diags.diagnostics().size(), 4u);
}

TEST(Diagnostics, ZeroLimitMeansUnlimited) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setErrorLimit(0);
  for (int i = 0; i < 200; ++i)
    diags.report(DiagID::err_syntax, SourceRange{}, {"e"});
  EXPECT_EQ(diags.diagnostics().size(), 200u);
}

TEST(Diagnostics, SanitizesEscapeSequencesAndInvalidUtf8) {
  EXPECT_EQ(sanitizeForTerminal("plain.name"), "plain.name");
  EXPECT_EQ(sanitizeForTerminal("a\x1b[31mred"), "a\\x1b[31mred");
  EXPECT_EQ(sanitizeForTerminal(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(sanitizeForTerminal("del\x7f"), "del\\x7f");
  EXPECT_EQ(sanitizeForTerminal("bad\xff"), "bad\\xff");
  EXPECT_EQ(sanitizeForTerminal("c1\xc2\x9b"), "c1\\xc2\\x9b"); // U+009B, the 8-bit CSI
  EXPECT_EQ(sanitizeForTerminal("caf\xc3\xa9"), "caf\xc3\xa9"); // valid UTF-8 stays
  EXPECT_EQ(sanitizeForTerminal("tab\there"), "tab here");
}

TEST(Diagnostics, MessagesWithControlCharactersAreSanitizedWhenPrinted) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.report(DiagID::err_unknown_module, SourceRange{}, {"evil\x1b]0;title\x07"});
  std::ostringstream os;
  diags.printText(os);
  EXPECT_EQ(os.str().find('\x1b'), std::string::npos);
  EXPECT_EQ(os.str().find('\x07'), std::string::npos);
  EXPECT_NE(os.str().find("evil\\x1b]0;title\\x07"), std::string::npos);
}

TEST(Diagnostics, JSONHasEveryField) {
  SourceManager sm;
  FileID f = sm.addFile("s.qspec", "protect \"x\"\n");
  DiagnosticEngine diags(sm);
  Diagnostic &d =
      diags.report(DiagID::warn_pattern_matches_nothing, sm.lineRange(f, 1, 9, 3), {"x"});
  diags.note(d, DiagID::note_previous_decl, sm.lineRange(f, 1, 1, 7));
  std::ostringstream os;
  diags.printJSON(os);
  auto j = nlohmann::json::parse(os.str());
  EXPECT_EQ(j["errors"], 0);
  EXPECT_EQ(j["warnings"], 1);
  const auto &e = j["diagnostics"][0];
  EXPECT_EQ(e["id"], "warn_pattern_matches_nothing");
  EXPECT_EQ(e["severity"], "warning");
  EXPECT_EQ(e["message"], "pattern 'x' selects no module");
  EXPECT_EQ(e["location"]["file"], "s.qspec");
  EXPECT_EQ(e["location"]["line"], 1);
  EXPECT_EQ(e["location"]["column"], 9);
  EXPECT_EQ(e["location"]["endColumn"], 12);
  EXPECT_EQ(e["notes"][0]["severity"], "note");
  EXPECT_EQ(e["notes"][0]["location"]["column"], 1);
  EXPECT_TRUE(e["fixits"].is_array());
}

TEST(Diagnostics, LongLinesAreCutAroundTheCaret) {
  SourceManager sm;
  std::string line(5000, 'a');
  FileID f = sm.addFile("long.qspec", line + "\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagID::err_syntax, sm.lineRange(f, 1, 4000, 1), {"here"});
  std::ostringstream os;
  diags.printText(os);
  std::string out = os.str();
  EXPECT_LT(out.size(), 1000u);
  EXPECT_NE(out.find("..."), std::string::npos);
  EXPECT_NE(out.find('^'), std::string::npos);
}

// ---- The verifier (--verify) --------------------------------------------------------------

static bool verify(const std::string &text, std::vector<std::pair<uint32_t, DiagID>> reports,
                   std::string &out) {
  SourceManager sm;
  FileID f = sm.addFile("v.qspec", text);
  DiagnosticEngine diags(sm);
  for (auto &[line, id] : reports)
    diags.report(id, sm.lineRange(f, line, 1, 1), {"x", "y"});
  std::ostringstream os;
  bool ok = verifyDiagnostics(diags, sm, os);
  out = os.str();
  return ok;
}

TEST(DiagnosticVerifier, MatchesOnTheSameLineAndRelativeLines) {
  std::string out;
  EXPECT_TRUE(verify("a // expected-error {{unknown target 'x'}}\n"
                     "// expected-warning@+1 {{pattern 'x' selects}}\n"
                     "b\n",
                     {{1, DiagID::err_unknown_target}, {3, DiagID::warn_pattern_matches_nothing}},
                     out))
      << out;
  EXPECT_NE(out.find("verify: 2 expected diagnostics matched"), std::string::npos);
}

TEST(DiagnosticVerifier, ReportsMissingAndUnexpected) {
  std::string out;
  EXPECT_FALSE(verify("a // expected-error {{unknown target}}\n", {}, out));
  EXPECT_NE(out.find("expected error not produced at v.qspec:1"), std::string::npos) << out;
  EXPECT_FALSE(verify("a\n", {{1, DiagID::err_unknown_target}}, out));
  EXPECT_NE(out.find("unexpected error at v.qspec:1"), std::string::npos) << out;
  // The right text on the wrong line does not count.
  EXPECT_FALSE(verify("a // expected-error {{unknown target}}\nb\n",
                      {{2, DiagID::err_unknown_target}}, out));
  // Severity matters.
  EXPECT_FALSE(
      verify("a // expected-warning {{unknown target}}\n", {{1, DiagID::err_unknown_target}}, out));
}

TEST(DiagnosticVerifier, UnexpectedNotesAreIgnored) {
  std::string out;
  EXPECT_TRUE(verify("a\n", {{1, DiagID::note_inventory_skipped}}, out)) << out;
}
