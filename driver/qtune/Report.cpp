// qtune status and qtune report: what a run did, read back from DIR/state.json and the history.
// The report is DIR/report.md (every probe of every round, warnings, failed evaluations) and
// DIR/report.svg (a hand-written deterministic chart).
#include "driver/qtune/Driver.h"

#include "driver/qtune/Support.h"
#include "emitters/Emitter.h"
#include "ir/Diagnostics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace qspec::tune {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

bool loadState(const std::string &dir, json &st) {
  bool ok = false;
  std::string text = readWholeFile((fs::path(dir) / "state.json").string(), ok);
  if (!ok)
    return false;
  st = json::parse(text, nullptr, false);
  return !st.is_discarded() && st.is_object() && st.contains("rounds");
}

int noRun(const std::string &dir) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.report(DiagID::err_tune_no_run, SourceRange{}, {dir});
  diags.printText(std::cerr);
  return 1;
}

std::string metricText(const json &m) { return m.is_number() ? formatNumber(m.get<double>()) : "-"; }

std::string xmlEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string mdCell(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// One panel of the chart: metric (y) against `xKey` of every evaluated probe.
void svgPanel(std::ostringstream &svg, const json &st, double x0, const char *title, const char *xLabel,
              bool byRound) {
  const double w = 340, h = 240, padL = 50, padB = 35, padT = 25;
  struct Pt {
    double x, y;
    bool pass;
  };
  std::vector<Pt> pts;
  double thr = st.value("threshold", 0.0);
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"])
      if (p["metric"].is_number())
        pts.push_back({byRound ? r["round"].get<double>() : p.value("modules", 0.0), p["metric"].get<double>(),
                       p.value("pass", false)});
  double xmin = 0, xmax = 1, ymin = thr, ymax = thr;
  for (const Pt &p : pts) {
    xmax = std::max(xmax, p.x);
    ymin = std::min(ymin, p.y);
    ymax = std::max(ymax, p.y);
  }
  if (byRound)
    xmin = std::min(1.0, xmax);
  if (ymax - ymin < 1e-9) {
    ymin -= 0.01;
    ymax += 0.01;
  }
  double ypad = (ymax - ymin) * 0.1;
  ymin -= ypad;
  ymax += ypad;
  auto X = [&](double x) { return x0 + padL + (xmax > xmin ? (x - xmin) / (xmax - xmin) : 0.5) * (w - padL - 10); };
  auto Y = [&](double y) { return padT + (ymax - y) / (ymax - ymin) * (h - padT - padB); };
  char buf[256];
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"15\" font-size=\"12\">%s</text>\n", x0 + padL, title);
  svg << buf;
  snprintf(buf, sizeof buf,
           "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", x0 + padL,
           padT, w - padL - 10, h - padT - padB);
  svg << buf;
  snprintf(buf, sizeof buf,
           "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#06c\" stroke-dasharray=\"4 3\"/>\n",
           x0 + padL, Y(thr), x0 + w - 10, Y(thr));
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(ymax) + 4, ymax);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(ymin), ymin);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
           x0 + padL - 4, Y(thr) + 3, thr);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%g</text>\n", x0 + padL, h - padB + 14,
           xmin);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%g</text>\n",
           x0 + w - 10, h - padB + 14, xmax);
  svg << buf;
  snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
           x0 + padL + (w - padL - 10) / 2, h - 6, xLabel);
  svg << buf;
  for (const Pt &p : pts) {
    snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", X(p.x), Y(p.y),
             p.pass ? "#2a2" : "#c22");
    svg << buf;
  }
}

} // namespace

int statusCommand(const std::string &dir) {
  json st;
  if (!loadState(dir, st))
    return noRun(dir);
  std::string holder;
  bool running = lockHeld((fs::path(dir) / "lock").string(), holder);
  std::string verdict = st.value("verdict", "?");
  std::cout << "spec: " << st.value("spec", "") << "\n";
  std::cout << "strategy: " << st.value("strategy", "") << "\n";
  std::cout << "target: " << st.value("metric", "") << " " << st.value("op", "") << " "
            << formatNumber(st.value("threshold", 0.0)) << "\n";
  std::cout << "state: "
            << (running ? "running" + (holder.empty() ? std::string() : " (pid " + holder + ")")
                : verdict == "running" ? std::string("interrupted; run 'qtune run' again to resume")
                                       : verdict)
            << "\n";
  std::cout << "rounds: " << st["rounds"].size() << "\n";
  std::cout << "evaluations: " << st.value("evaluations", 0) << " (this run), cache hits: "
            << st.value("cache_hits", 0) << ", history: "
            << readHistory((fs::path(dir) / "history.jsonl").string()).size() << " records\n";
  if (st["best"].is_object())
    std::cout << "best: level " << st["best"].value("level", 0) << ", " << st.value("metric", "") << " "
              << metricText(st["best"]["metric"]) << ", " << st["best"].value("units", 0) << " units, "
              << st["best"].value("modules", 0) << " modules moved\n";
  else
    std::cout << "best: none\n";
  if (!st.value("message", std::string()).empty())
    std::cout << "message: " << st.value("message", "") << "\n";
  return 0;
}

bool writeReportFiles(const std::string &dir, std::string &err) {
  json st;
  if (!loadState(dir, st)) {
    err = "no readable state.json";
    return false;
  }
  std::ostringstream md;
  md << "# qtune report\n\n";
  md << "| | |\n|---|---|\n";
  md << "| spec | `" << mdCell(st.value("spec", "")) << "` |\n";
  md << "| strategy | " << st.value("strategy", "") << " |\n";
  md << "| target | " << st.value("metric", "") << " " << st.value("op", "") << " "
     << formatNumber(st.value("threshold", 0.0)) << " |\n";
  md << "| verdict | " << st.value("verdict", "") << (st.value("message", "").empty() ? "" : ": ")
     << mdCell(st.value("message", "")) << " |\n";
  md << "| levels / units | " << st.value("levels", 0) << " / " << st.value("units", 0) << " |\n";
  md << "| evaluations (last run) | " << st.value("evaluations", 0) << ", cache hits " << st.value("cache_hits", 0)
     << " |\n";
  if (st["best"].is_object())
    md << "| best | level " << st["best"].value("level", 0) << ", metric " << metricText(st["best"]["metric"])
       << ", " << st["best"].value("units", 0) << " units / " << st["best"].value("modules", 0)
       << " modules moved (`best/`) |\n";
  else
    md << "| best | none |\n";
  md << "\n## Rounds\n\n";
  md << "| round | change | level | units | modules | anti-outlier | metric | result | cached |\n";
  md << "|---:|---|---|---:|---:|---|---:|---|---|\n";
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      std::string status = p.value("status", "");
      std::string result = status != "ok" ? "failed (" + status + ")" : p.value("pass", false) ? "pass" : "fail";
      md << "| " << r.value("round", 0) << " | " << mdCell(p.value("why", "")) << " | " << p.value("level", 0)
         << " (" << mdCell(p.value("level_text", "")) << ") | " << p.value("units", 0) << " | "
         << p.value("modules", 0) << " | " << mdCell(p.value("anti_outlier", "").empty() ? "-" : p.value("anti_outlier", ""))
         << " | " << metricText(p["metric"]) << " | " << result << " | " << (p.value("cached", false) ? "yes" : "no")
         << " |\n";
    }
  if (!st["notes"].empty()) {
    md << "\n## Warnings\n\n";
    for (const json &n : st["notes"])
      md << "- non-monotone: " << mdCell(n.get<std::string>()) << "\n";
  }
  std::vector<EvalRecord> hist = readHistory((fs::path(dir) / "history.jsonl").string());
  bool anyFailed = false;
  for (const EvalRecord &r : hist)
    anyFailed = anyFailed || r.status != "ok";
  if (anyFailed) {
    md << "\n## Failed evaluations\n\n";
    for (const EvalRecord &r : hist)
      if (r.status != "ok") {
        md << "- `" << r.key.substr(0, 16) << "` (round " << r.round << ", " << mdCell(r.why) << "): "
           << mdCell(r.detail) << "\n";
        if (!r.stderrTail.empty())
          md << "\n  ```\n  " << [&] {
            std::string t = r.stderrTail, o;
            for (char c : t)
              o += c == '\n' ? std::string("\n  ") : std::string(1, c == '`' ? '\'' : c);
            return o;
          }() << "\n  ```\n";
      }
  }
  md << "\n## Chart\n\n![metric against round and fallback size](report.svg)\n";

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"250\" viewBox=\"0 0 700 250\" "
         "font-family=\"sans-serif\">\n";
  svg << "<rect width=\"700\" height=\"250\" fill=\"white\"/>\n";
  svgPanel(svg, st, 0, xmlEscape("metric by round").c_str(), "round", true);
  svgPanel(svg, st, 350, xmlEscape("metric by fallback size").c_str(), "modules moved", false);
  svg << "</svg>\n";
  return emit::writeFileAtomically((fs::path(dir) / "report.md").string(), md.str(), err) &&
         emit::writeFileAtomically((fs::path(dir) / "report.svg").string(), svg.str(), err);
}

int reportCommand(const std::string &dir) {
  json st;
  if (!loadState(dir, st))
    return noRun(dir);
  std::string err;
  if (!writeReportFiles(dir, err)) {
    SourceManager sm;
    DiagnosticEngine diags(sm);
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {dir, err});
    diags.printText(std::cerr);
    return 1;
  }
  std::cout << "qtune: wrote " << (fs::path(dir) / "report.md").string() << " and report.svg\n";
  return 0;
}

} // namespace qspec::tune
