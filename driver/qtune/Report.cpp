// qtune status and qtune report: what a run did, read back from DIR/state.json and the history.
// The report is DIR/report.md (every probe of every round, warnings, failed evaluations) and
// DIR/report.svg (a hand-written deterministic chart).
#include "driver/qtune/Driver.h"

#include "driver/qtune/RoundDiff.h"
#include "driver/qtune/Support.h"
#include "emitters/Emitter.h"
#include "ir/Diagnostics.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <set>
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

std::string metricText(const json &m) {
  return m.is_number() ? formatNumber(m.get<double>()) : "-";
}

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

// What a probe (or the best) of state.json moves: its "set", or for a state.json written before
// probes named their set, its level.
std::string setText(const json &p) {
  if (p.contains("set") && p["set"].is_string())
    return p["set"].get<std::string>();
  return "level " + std::to_string(p.value("level", 0)) + " (" + p.value("level_text", "none") +
         ")";
}

// True for a probe of a whole-model HMCT phase (every unit at one tier, no level).
bool wholeModel(const json &p) {
  return p.contains("uniform") && p["uniform"].is_string() && p.value("level", 0) == 0;
}

std::string mdCell(const std::string &s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

// The HMCT ladder's phase of a probe ("phase 3: ..." -> 3), 0 for other strategies.
int phaseOf(const json &probe) {
  std::string why = probe.value("why", "");
  return why.rfind("phase ", 0) == 0 && why.size() > 6 &&
                 std::isdigit(static_cast<unsigned char>(why[6]))
             ? why[6] - '0'
             : 0;
}

const char *phaseColor(int phase) {
  static const char *kColors[] = {"#555",    "#1f77b4", "#ff7f0e", "#2ca02c",
                                  "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return kColors[std::clamp(phase, 0, 7)];
}

// Axis ticks: about `parts` + 1 round values covering [lo, hi].
std::vector<double> ticks(double lo, double hi, bool integral, double parts = 4) {
  double span = hi - lo, raw = span / parts,
         mag = std::pow(10.0, std::floor(std::log10(raw > 0 ? raw : 1)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  if (integral)
    step = std::max(1.0, std::round(step));
  std::vector<double> out;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && out.size() < 12;
       t += step)
    out.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

struct ChartPoint {
  double x, y;
  bool pass, failed, best;
  int phase;
  std::string whole; // the tier of a whole-model probe ("int16"), else ""
};

// The HMCT phases a run went through, ascending.
std::vector<int> phasesOf(const json &st) {
  std::set<int> phases;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"])
      if (int ph = phaseOf(p))
        phases.insert(ph);
  return {phases.begin(), phases.end()};
}

// On the size axis of an HMCT ladder every phase has its own band (its position among the
// phases run), and a probe sits in it by its level: phases raise different tiers, so their
// module counts are not comparable on one scale.
double bandX(const std::vector<int> &phases, int phase, double level, double levels) {
  size_t band =
      static_cast<size_t>(std::find(phases.begin(), phases.end(), phase) - phases.begin());
  return static_cast<double>(band) + 0.15 + 0.7 * (levels > 0 ? level / levels : 0);
}

std::vector<ChartPoint> chartPoints(const json &st, bool byRound) {
  std::string bestKey = st["best"].is_object() ? st["best"].value("key", "") : "";
  std::vector<int> phases = phasesOf(st);
  double levels = st.value("levels", 0.0);
  std::vector<ChartPoint> pts;
  std::set<std::string> seen; // a cached repeat of a probe is drawn once on the size axis
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      std::string key = p.value("key", "");
      if (!byRound && !seen.insert(key).second)
        continue;
      bool failed = !p["metric"].is_number();
      double x = byRound          ? r["round"].get<double>()
                 : phases.empty() ? p.value("modules", 0.0)
                                  : bandX(phases, phaseOf(p), p.value("level", 0.0), levels);
      pts.push_back({x, failed ? 0 : p["metric"].get<double>(), p.value("pass", false), failed,
                     !bestKey.empty() && key == bestKey, phaseOf(p),
                     wholeModel(p) ? p["uniform"].get<std::string>() +
                                         (p.value("dual_matmul", false) ? "+dual" : "")
                                   : std::string()});
    }
  return pts;
}

// One panel of the chart: metric (y) against the round or the modules moved (x) of every probe.
// Passing probes are filled, failing ones hollow, failed evaluations (no metric) crosses on the
// bottom edge; the best configuration is ringed and labelled; the target is the dashed line.
// With the HMCT ladder each phase has its colour and its points are joined in order of size, so
// phases stay apart on the size axis.
class Panel {
public:
  Panel(std::ostringstream &svg, const json &st, double x0, bool byRound)
      : svg_(svg), st_(st), x0_(x0), byRound_(byRound), pts_(chartPoints(st, byRound)),
        thr_(st.value("threshold", 0.0)) {
    fitRanges();
  }

  void draw(const char *title, const char *xLabel) {
    put("<text x=\"%.1f\" y=\"15\" font-size=\"12\" font-weight=\"bold\">%s</text>\n", x0_ + kPadL,
        title);
    put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
        "stroke=\"#888\"/>\n",
        x0_ + kPadL, kPadT, kPlotW, kPlotH);
    for (double t : ticks(ymin_, ymax_, false)) {
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n",
          x0_ + kPadL + 1, Y(t), x0_ + kPadL + kPlotW - 1, Y(t));
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n",
          x0_ + kPadL - 4, Y(t) + 3, t);
    }
    xLabel = xAxis(xLabel);
    labels(xLabel);
    if (!byRound_)
      phaseLines();
    for (const ChartPoint &p : pts_)
      point(p);
  }

private:
  static constexpr double kW = 380, kH = 270, kPadL = 55, kPadB = 45, kPadT = 25;
  static constexpr double kPlotW = kW - kPadL - 15, kPlotH = kH - kPadT - kPadB;
  std::ostringstream &svg_;
  const json &st_;
  double x0_;
  bool byRound_;
  std::vector<ChartPoint> pts_;
  double thr_;
  double xmin_ = 0, xmax_ = 1, ymin_ = 0, ymax_ = 0;
  char buf_[320];

  template <typename... A> void put(const char *fmt, A... args) {
    snprintf(buf_, sizeof buf_, fmt, args...);
    svg_ << buf_;
  }
  double X(double x) const {
    return x0_ + kPadL + (xmax_ > xmin_ ? (x - xmin_) / (xmax_ - xmin_) : 0.5) * kPlotW;
  }
  double Y(double y) const { return kPadT + (ymax_ - y) / (ymax_ - ymin_) * kPlotH; }

  // The axes' ranges: every probe and the target, 12% of room above and below.
  void fitRanges() {
    ymin_ = ymax_ = thr_;
    if (st_.contains("baseline") && st_["baseline"].is_number()) {
      ymin_ = std::min(ymin_, st_["baseline"].get<double>());
      ymax_ = std::max(ymax_, st_["baseline"].get<double>());
    }
    for (const ChartPoint &p : pts_) {
      xmax_ = std::max(xmax_, p.x);
      if (!p.failed) {
        ymin_ = std::min(ymin_, p.y);
        ymax_ = std::max(ymax_, p.y);
      }
    }
    if (byRound_)
      xmin_ = std::min(1.0, xmax_);
    if (ymax_ - ymin_ < 1e-9) {
      ymin_ -= 0.01;
      ymax_ += 0.01;
    }
    double ypad = (ymax_ - ymin_) * 0.12;
    ymin_ -= ypad;
    ymax_ += ypad;
  }

  // The x axis: one labelled band per HMCT phase (then the points' x is the band position), else
  // ticks with values. Returns the axis label.
  const char *xAxis(const char *xLabel) {
    std::vector<int> phases = byRound_ ? std::vector<int>{} : phasesOf(st_);
    if (phases.empty()) {
      for (double t : ticks(xmin_, xmax_, true)) {
        put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", X(t),
            kPadT + kPlotH, X(t), kPadT + kPlotH + 4);
        put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%g</text>\n", X(t),
            kPadT + kPlotH + 15, t);
      }
      return xLabel;
    }
    xmin_ = 0;
    xmax_ = static_cast<double>(phases.size());
    for (size_t b = 0; b < phases.size(); ++b) {
      if (b > 0)
        put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>\n", X(b),
            kPadT, X(b), kPadT + kPlotH);
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"%s\">phase "
          "%d</text>\n",
          X(b + 0.5), kPadT + kPlotH + 15, phaseColor(phases[b]), phases[b]);
    }
    return "phase, then level within it (left: none, right: all)";
  }

  // The axis labels and the dashed target line.
  void labels(const char *xLabel) {
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
        x0_ + kPadL + kPlotW / 2, kPadT + kPlotH + 30, xLabel);
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
        "transform=\"rotate(-90 %.1f %.1f)\">%s"
        "</text>\n",
        x0_ + 14, kPadT + kPlotH / 2, x0_ + 14, kPadT + kPlotH / 2,
        xmlEscape(st_.value("metric", "metric")).c_str());
    put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#06c\" "
        "stroke-dasharray=\"4 3\"/>\n",
        x0_ + kPadL, Y(thr_), x0_ + kPadL + kPlotW, Y(thr_));
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#06c\">target %.4g</text>\n",
        x0_ + kPadL + 3, Y(thr_) - 3, thr_);
    if (st_.contains("baseline") && st_["baseline"].is_number()) {
      double b = st_["baseline"].get<double>();
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" "
          "stroke-dasharray=\"1 2\"/>\n",
          x0_ + kPadL, Y(b), x0_ + kPadL + kPlotW, Y(b));
      put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#777\" "
          "text-anchor=\"end\">float baseline %.4g</text>\n",
          x0_ + kPadL + kPlotW - 3, Y(b) - 3, b);
    }
  }

  // Each phase's probes joined in order of size.
  void phaseLines() {
    for (int ph = 1; ph <= 7; ++ph) {
      std::vector<std::pair<double, double>> line;
      for (const ChartPoint &p : pts_)
        if (p.phase == ph && !p.failed)
          line.emplace_back(X(p.x), Y(p.y));
      std::sort(line.begin(), line.end());
      if (line.size() < 2)
        continue;
      svg_ << "<polyline fill=\"none\" stroke=\"" << phaseColor(ph)
           << "\" stroke-opacity=\"0.6\" points=\"";
      for (const auto &[px, py] : line)
        put("%.1f,%.1f ", px, py);
      svg_ << "\"/>\n";
    }
  }

  // One probe: a cross for a failed evaluation, a filled or hollow dot, a ring and label if best.
  void point(const ChartPoint &p) {
    const char *color = p.phase > 0 ? phaseColor(p.phase) : p.pass ? "#2a2" : "#c22";
    if (p.failed) {
      double cx = X(p.x), cy = kPadT + kPlotH - 5;
      put("<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"#e67e00\" "
          "stroke-width=\"2\"/>\n",
          cx - 4, cy - 4, cx + 4, cy + 4, cx - 4, cy + 4, cx + 4, cy - 4);
      return;
    }
    if (!p.whole.empty()) {
      // A whole-model phase: a square labelled with its tier, apart from the level probes.
      put("<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"%s\" stroke=\"%s\" "
          "stroke-width=\"1.5\"/>\n",
          X(p.x) - 3.5, Y(p.y) - 3.5, p.pass ? color : "white", color);
      if (!byRound_)
        put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" fill=\"%s\">all %s</text>\n", X(p.x) + 6,
            Y(p.y) + 3, color, xmlEscape(p.whole).c_str());
    } else if (p.pass || p.phase == 0)
      put("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", X(p.x), Y(p.y), color);
    else
      put("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"white\" stroke=\"%s\" "
          "stroke-width=\"1.5\"/>\n",
          X(p.x), Y(p.y), color);
    if (!p.best)
      return;
    bool nearRight = X(p.x) > x0_ + kPadL + kPlotW - 30;
    put("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"none\" stroke=\"black\" "
        "stroke-width=\"1.5\"/>\n",
        X(p.x), Y(p.y));
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" font-weight=\"bold\"%s>best</text>\n",
        X(p.x) + (nearRight ? -10.0 : 10.0), Y(p.y) - 8, nearRight ? " text-anchor=\"end\"" : "");
  }
};

void svgPanel(std::ostringstream &svg, const json &st, double x0, const char *title,
              const char *xLabel, bool byRound) {
  Panel(svg, st, x0, byRound).draw(title, xLabel);
}

// The legend under the panels: the markers, and the HMCT phases that occur.
void svgLegend(std::ostringstream &svg, const json &st, double y) {
  std::vector<int> phases = phasesOf(st);
  double x = 55;
  auto item = [&](const std::string &marker, const std::string &text) {
    svg << marker;
    char buf[200];
    snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>\n", x + 9,
             y + 3, xmlEscape(text).c_str());
    svg << buf;
    x += 16 + 6.0 * static_cast<double>(text.size());
  };
  char m[200];
  bool ladder = !phases.empty();
  snprintf(m, sizeof m, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, y,
           ladder ? "#555" : "#2a2");
  item(m, "passes");
  snprintf(m, sizeof m,
           ladder ? "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"white\" stroke=\"#555\"/>\n"
                  : "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#c22\"/>\n",
           x, y);
  item(m, "fails");
  snprintf(m, sizeof m,
           "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"#e67e00\" "
           "stroke-width=\"2\"/>\n",
           x - 4, y - 4, x + 4, y + 4, x - 4, y + 4, x + 4, y - 4);
  item(m, "evaluation failed (no metric)");
  snprintf(m, sizeof m,
           "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"black\" "
           "stroke-width=\"1.5\"/>\n",
           x, y);
  item(m, "best");
  if (ladder) {
    snprintf(m, sizeof m,
             "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\" fill=\"white\" "
             "stroke=\"#555\" stroke-width=\"1.5\"/>\n",
             x - 3.5, y - 3.5);
    item(m, "whole model");
  }
  for (int ph : phases) {
    snprintf(m, sizeof m, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
             x - 4, y - 4, phaseColor(ph));
    item(m, "phase " + std::to_string(ph));
  }
}

// The answer first: what the best configuration changes relative to the base spec, one row per
// unit, a table to paste into a review.
void answerSection(std::ostringstream &md, const json &st) {
  md << "## Answer\n\n";
  const json &best = st["best"];
  if (!best.is_object()) {
    md << "No configuration met the target";
    if (!st.value("message", std::string()).empty())
      md << " (" << mdCell(st.value("message", "")) << ")";
    md << "; the base spec is unchanged.\n\n";
    return;
  }
  const json &changes = best.contains("changes") ? best["changes"] : json();
  size_t modules = 0;
  if (changes.is_array())
    for (const json &c : changes)
      modules += c.value("modules", size_t(0));
  md << "Best: " << mdCell(setText(best)) << ", " << st.value("metric", "") << " "
     << metricText(best["metric"]) << " ("
     << (st.value("verdict", "") == "running" ? "so far; " : "")
     << "`best/`, `qtune apply` writes it into the spec).\n\n";
  if (!changes.is_array() || changes.empty()) {
    md << "No module changes tier relative to the base spec.\n\n";
    return;
  }
  md << modules << " module" << (modules == 1 ? "" : "s") << " in " << changes.size() << " unit"
     << (changes.size() == 1 ? "" : "s") << " change tier relative to the base spec:\n\n";
  md << "| unit | modules | base tier | tuned tier |\n|---|---:|---|---|\n";
  for (const json &c : changes)
    md << "| `" << mdCell(c.value("unit", "")) << "` | " << c.value("modules", 0) << " | "
       << c.value("from", "") << " | " << c.value("to", "") << " |\n";
  md << "\n";
}

std::string seconds(double s) {
  char buf[32];
  if (s >= 3600)
    snprintf(buf, sizeof buf, "%.1fh", s / 3600);
  else if (s >= 60)
    snprintf(buf, sizeof buf, "%.1fm", s / 60);
  else
    snprintf(buf, sizeof buf, "%.1fs", s);
  return buf;
}

// A probe's wall time as report.md and qtune status show it; "-" for a cached one (not run).
std::string probeTime(const json &p) {
  if (p.value("cached", false))
    return "-";
  return seconds(p.contains("seconds") && p["seconds"].is_number() ? p["seconds"].get<double>()
                                                                   : 0);
}

// Below the metric panels: every probe's wall time, one bar per probe in the order of the rounds
// (coloured as its point; a cached probe did not run: a grey stub), the mean time per
// evaluation dashed, the time axis in s, min or h, whichever reads best.
void svgTimePanel(std::ostringstream &svg, const json &st, double y0) {
  struct Bar {
    int round;
    double secs;
    bool ran;
    std::string color, tip;
  };
  std::vector<Bar> bars;
  double most = 0, total = 0;
  int ran = 0;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      bool cached = p.value("cached", false);
      double secs = !cached && p.contains("seconds") && p["seconds"].is_number()
                        ? p["seconds"].get<double>()
                        : 0;
      int ph = phaseOf(p);
      std::string color = !p["metric"].is_number() ? "#e67e00"
                          : ph > 0                 ? phaseColor(ph)
                          : p.value("pass", false) ? "#2a2"
                                                   : "#c22";
      std::string tip = "round " + std::to_string(r.value("round", 0)) + ": " + setText(p) + ", " +
                        (cached ? std::string("cached") : seconds(secs));
      bars.push_back({r.value("round", 0), secs, !cached, color, xmlEscape(tip)});
      most = std::max(most, secs);
      if (!cached) {
        total += secs;
        ++ran;
      }
    }
  const double x0 = 55, w = 710, top = y0 + 25, h = 110;
  double unit = most >= 7200 ? 3600 : most >= 120 ? 60 : 1;
  double ymax = most > 0 ? most / unit * 1.1 : 1;
  std::vector<double> ts = ticks(0, ymax, false, 6);
  ymax = std::max(ymax, ts.empty() ? 0 : ts.back());
  auto Y = [&](double secs) { return top + h - secs / unit / ymax * h; };
  char buf[400];
  auto put = [&](const char *fmt, auto... args) {
    snprintf(buf, sizeof buf, fmt, args...);
    svg << buf;
  };
  put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" font-weight=\"bold\">wall time per "
      "probe</text>\n",
      x0, y0 + 15);
  put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
      "stroke=\"#888\"/>\n",
      x0, top, w, h);
  for (double t : ts) {
    put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", x0 + 1,
        Y(t * unit), x0 + w - 1, Y(t * unit));
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.4g</text>\n", x0 - 4,
        Y(t * unit) + 3, t);
  }
  const char *unitName = unit == 3600 ? "h" : unit == 60 ? "min" : "s";
  put("<text x=\"14\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 14 %.1f)\">wall time (%s)</text>\n",
      top + h / 2, top + h / 2, unitName);
  double slot = bars.empty() ? w : w / static_cast<double>(bars.size());
  double bw = std::min(18.0, slot * 0.7), lastLabel = -1e9;
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar &b = bars[i];
    double cx = x0 + slot * (static_cast<double>(i) + 0.5);
    if (b.ran)
      put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
          "<title>%s</title></rect>\n",
          cx - bw / 2, Y(b.secs), bw, top + h - Y(b.secs), b.color.c_str(), b.tip.c_str());
    else
      put("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"2\" fill=\"#bbb\">"
          "<title>%s</title></rect>\n",
          cx - bw / 2, top + h - 2, bw, b.tip.c_str());
  }
  // Each round's number under the middle of its bars (where it does not crowd the previous one),
  // a faint line between rounds.
  for (size_t i = 0, j = 0; i < bars.size(); i = j) {
    j = i;
    while (j < bars.size() && bars[j].round == bars[i].round)
      ++j;
    double left = x0 + slot * static_cast<double>(i), cx = (left + x0 + slot * j) / 2;
    if (i > 0)
      put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left,
          top + 1, left, top + h - 1);
    if (cx - lastLabel < 18)
      continue;
    put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", cx, top + h,
        cx, top + h + 4);
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%d</text>\n", cx,
        top + h + 15, bars[i].round);
    lastLabel = cx;
  }
  if (ran > 0) {
    double mean = total / ran;
    put("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
        "stroke-dasharray=\"4 3\"/>\n",
        x0, Y(mean), x0 + w, Y(mean));
    put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"#333\">mean %s per "
        "evaluation</text>\n",
        x0 + 3, Y(mean) - 3, seconds(mean).c_str());
  }
  put("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">round (one bar per "
      "probe; grey: cached, not run)</text>\n",
      x0 + w / 2, top + h + 30);
}

// The budget left and the ETA it gives: the time left, or the evaluations left at the mean
// time per evaluation, whichever ends first. "" without a budget.
std::string etaText(const json &st, double perEval, bool running) {
  double maxTime = st.value("max_time", 0.0), elapsed = st.value("elapsed", 0.0);
  int maxEvals = st.value("max_evals", 0), evals = st.value("evaluations", 0);
  std::string out;
  double eta = -1;
  if (maxEvals > 0) {
    out += std::to_string(evals) + " of " + std::to_string(maxEvals) + " evaluations";
    if (perEval > 0) {
      double slots = std::max(1.0, st.value("jobs", 1.0));
      eta = std::ceil(std::max(0, maxEvals - evals) / slots) * perEval;
    }
  }
  if (maxTime > 0) {
    out += (out.empty() ? "" : "; ") + seconds(elapsed) + " of " + seconds(maxTime);
    double left = std::max(0.0, maxTime - elapsed);
    eta = eta < 0 ? left : std::min(eta, left);
  }
  if (out.empty())
    return "";
  std::string line = "budget: " + out;
  if (running && eta >= 0)
    line += "; ETA at most " + seconds(eta);
  return line;
}

// The live table of `qtune status`: every probe so far (set, metric, result, wall time, device)
// and the evaluations running now, then the budget and the ETA.
void statusTable(const json &st, bool running) {
  const json &metricName = st["metric"];
  std::vector<std::array<std::string, 6>> rows;
  rows.push_back({"round", "set", metricName.is_string() ? metricName.get<std::string>() : "metric",
                  "result", "time", "device"});
  double total = 0;
  int timed = 0;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      std::string status = p.value("status", "");
      bool cached = p.value("cached", false);
      std::string result = status != "ok"           ? "failed (" + status + ")"
                           : p.value("pass", false) ? "pass"
                                                    : "fail";
      double secs =
          p.contains("seconds") && p["seconds"].is_number() ? p["seconds"].get<double>() : 0;
      if (!cached && secs > 0) {
        total += secs;
        ++timed;
      }
      rows.push_back({std::to_string(r.value("round", 0)), setText(p), metricText(p["metric"]),
                      result + (cached ? " (cached)" : ""), probeTime(p),
                      p.value("device", "").empty() ? "-" : p.value("device", "")});
    }
  double elapsed = st.value("elapsed", 0.0);
  if (running && st.contains("in_flight") && st["in_flight"].is_array())
    for (const json &f : st["in_flight"])
      rows.push_back({"now", f.value("set", ""), "-", "running",
                      seconds(std::max(0.0, elapsed - f.value("started", 0.0))),
                      f.value("device", "").empty() ? "-" : f.value("device", "")});
  std::array<size_t, 6> width{};
  for (const auto &row : rows)
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  std::cout << "\n";
  for (const auto &row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c)
      line += row[c] + (c + 1 < row.size() ? std::string(width[c] - row[c].size() + 2, ' ') : "");
    std::cout << line << "\n";
  }
  double perEval = timed ? total / timed : 0;
  std::cout << "\n";
  if (timed)
    std::cout << "time per evaluation: " << seconds(perEval) << " (mean of " << timed << ")\n";
  std::string eta = etaText(st, perEval, running);
  if (!eta.empty())
    std::cout << eta << "\n";
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
  std::cout << "evaluations: " << st.value("evaluations", 0)
            << " (this run), cache hits: " << st.value("cache_hits", 0)
            << ", history: " << readHistory((fs::path(dir) / "history.jsonl").string()).size()
            << " records\n";
  if (st["best"].is_object())
    std::cout << "best: " << setText(st["best"]) << ", " << st.value("metric", "") << " "
              << metricText(st["best"]["metric"]) << ", " << st["best"].value("units", 0)
              << " units, " << st["best"].value("modules", 0) << " modules moved\n";
  else
    std::cout << "best: none\n";
  if (!st.value("message", std::string()).empty())
    std::cout << "message: " << st.value("message", "") << "\n";
  statusTable(st, running);
  return 0;
}

namespace {

// The HMCT workflow's own outputs for a hmct-ladder run: DIR/final_quant_config.json (the hmct
// target's quant_config of the best configuration) and DIR/tuning_report.md (the table of
// HMCT's script: # | Phase | Configuration | Output Cosine Similarity | Threshold Met).
bool writeHmctOutputs(const std::string &dir, const json &st, std::string &err) {
  fs::path finalConfig;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(fs::path(dir) / "best" / "config", ec))
    if (e.path().extension() == ".json")
      finalConfig = e.path();
  bool ok = true;
  std::string finalText;
  if (!finalConfig.empty())
    finalText = readWholeFile(finalConfig.string(), ok);
  std::ostringstream md;
  md << "# PTQ Precision Tuning Report\n\n## Background & Goals\n\n";
  md << "- Model: `" << mdCell(st.value("spec", "")) << "`\n";
  md << "- Metric / threshold: " << st.value("metric", "") << " " << st.value("op", "") << " "
     << formatNumber(st.value("threshold", 0.0)) << "\n";
  md << "- Strategy: hmct-ladder, " << st.value("levels", 0) << " levels over "
     << st.value("units", 0) << " units\n\n## Tuning Process & Results\n\n";
  md << "| # | Phase | Configuration | Output Cosine Similarity | Threshold Met "
        "|\n|---:|---|---|---|---|\n";
  int n = 0;
  std::set<std::string> seen;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      if (!seen.insert(p.value("key", "")).second)
        continue;
      std::string why = p.value("why", ""), phase = why.substr(0, why.find(':'));
      char metric[64];
      if (p["metric"].is_number())
        snprintf(metric, sizeof metric, "out=%.6f", p["metric"].get<double>());
      else
        snprintf(metric, sizeof metric, "failed (%s)", p.value("status", "").c_str());
      md << "| " << ++n << " | " << mdCell(phase) << " | "
         << mdCell(why.size() > phase.size() + 2 ? why.substr(phase.size() + 2) : why) << ", "
         << p.value("modules", 0) << " modules moved | " << metric << " | "
         << (!p["metric"].is_number() ? "-"
             : p.value("pass", false) ? "YES"
                                      : "NO")
         << " |\n";
    }
  md << "\n## Final quant_config\n\n";
  if (!finalText.empty())
    md << "```json\n" << finalText << (finalText.back() == '\n' ? "" : "\n") << "```\n";
  else if (st["best"].is_object())
    md << "The spec has no hmct target: no quant_config was emitted.\n";
  else
    md << "No configuration met the threshold (" << mdCell(st.value("message", "")) << ").\n";
  md << "\n## Output Directories\n\n- `best/`: the best configuration's emitted files and its "
        "tuning statements\n"
        "- `evals/KEY/`: one folder per evaluation (config/, result.json, stdout.txt)\n"
        "- `final_quant_config.json`, `report.md`, `report.svg`\n";
  if (finalText.empty())
    fs::remove(fs::path(dir) / "final_quant_config.json", ec);
  else if (!writeWorkFile(dir, "final_quant_config.json", finalText, err))
    return false;
  return writeWorkFile(dir, "tuning_report.md", md.str(), err);
}

// What every row's spec changes against the base spec and the row above (RoundDiff.h), in the
// order of the rows.
std::vector<RowChanges> rowChanges(const std::string &dir, const json &st, std::string &note) {
  std::vector<ReportRow> rows;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"])
      rows.push_back({p.value("key", ""), p.value("anti_outlier", "")});
  SavedRun run;
  if (!readSavedRun(dir, run)) {
    note = "state.json names no spec";
    return std::vector<RowChanges>(rows.size(), RowChanges{"-", "-"});
  }
  emit::registerAllEmitters();
  return roundChanges(dir, run, rows, note);
}

} // namespace

bool writeReportFiles(const std::string &dir, std::string &err) {
  json st;
  if (!loadState(dir, st)) {
    err = "no readable state.json";
    return false;
  }
  std::ostringstream md;
  md << "# qtune report\n\n";
  answerSection(md, st);
  md << "## Run\n\n| | |\n|---|---|\n";
  md << "| spec | `" << mdCell(st.value("spec", "")) << "` |\n";
  md << "| strategy | " << st.value("strategy", "") << " |\n";
  md << "| target | " << st.value("metric", "") << " " << st.value("op", "") << " "
     << formatNumber(st.value("threshold", 0.0)) << " |\n";
  md << "| verdict | " << st.value("verdict", "") << (st.value("message", "").empty() ? "" : ": ")
     << mdCell(st.value("message", "")) << " |\n";
  md << "| levels / units | " << st.value("levels", 0) << " / " << st.value("units", 0) << " |\n";
  md << "| evaluations (last run) | " << st.value("evaluations", 0) << ", cache hits "
     << st.value("cache_hits", 0) << " |\n";
  if (st["best"].is_object())
    md << "| best | " << setText(st["best"]) << ", metric " << metricText(st["best"]["metric"])
       << ", " << st["best"].value("units", 0) << " units / " << st["best"].value("modules", 0)
       << " modules moved (`best/`) |\n";
  else
    md << "| best | none |\n";
  md << "\n## Rounds\n\n";
  md << "| round | change | set | units | modules | anti-outlier | metric | result | cached | "
        "against the base spec | against the previous round | time | device |\n";
  md << "|---:|---|---|---:|---:|---|---:|---|---|---|---|---:|---|\n";
  std::string bestKey = st["best"].is_object() ? st["best"].value("key", "") : "";
  std::string changesNote;
  std::vector<RowChanges> changes = rowChanges(dir, st, changesNote);
  size_t row = 0;
  for (const json &r : st["rounds"])
    for (const json &p : r["probes"]) {
      std::string status = p.value("status", "");
      std::string result = status != "ok"           ? "failed (" + status + ")"
                           : p.value("pass", false) ? "pass"
                                                    : "fail";
      if (!bestKey.empty() && p.value("key", "") == bestKey)
        result = "**" + result + ", best**";
      md << "| " << r.value("round", 0) << " | " << mdCell(p.value("why", "")) << " | "
         << mdCell(setText(p)) << " | " << p.value("units", 0) << " | " << p.value("modules", 0)
         << " | " << mdCell(p.value("anti_outlier", "").empty() ? "-" : p.value("anti_outlier", ""))
         << " | " << metricText(p["metric"]) << " | " << result << " | "
         << (p.value("cached", false) ? "yes" : "no") << " | " << changes[row].base << " | "
         << changes[row].previous << " | " << probeTime(p) << " | "
         << mdCell(p.value("device", "").empty() ? "-" : p.value("device", "")) << " |\n";
      ++row;
    }
  if (!changesNote.empty())
    md << "\nChanges not shown where a cell is `-`: " << mdCell(changesNote) << ".\n";
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
        md << "- `" << r.key.substr(0, 16) << "` (round " << r.round << ", " << mdCell(r.why)
           << "): " << mdCell(r.detail) << "\n";
        if (!r.stderrTail.empty())
          md << "\n  ```\n  " << [&] {
            std::string t = r.stderrTail, o;
            for (char c : t)
              o += c == '\n' ? std::string("\n  ") : std::string(1, c == '`' ? '\'' : c);
            return o;
          }() << "\n  ```\n";
      }
  }
  md << "\n## Chart\n\n![metric against round and fallback size, wall time per "
        "probe](report.svg)\n";

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"780\" height=\"480\" viewBox=\"0 0 780 "
         "480\" "
         "font-family=\"sans-serif\">\n";
  svg << "<rect width=\"780\" height=\"480\" fill=\"white\"/>\n";
  svgPanel(svg, st, 0, "metric by round", "round", true);
  svgPanel(svg, st, 390, "metric by fallback size", "modules moved", false);
  svgLegend(svg, st, 288);
  svgTimePanel(svg, st, 300);
  svg << "</svg>\n";
  return writeWorkFile(dir, "report.md", md.str(), err) &&
         writeWorkFile(dir, "report.svg", svg.str(), err) &&
         (st.value("strategy", "") != "hmct-ladder" || writeHmctOutputs(dir, st, err));
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
