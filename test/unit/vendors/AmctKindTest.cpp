// AMCT: which root message a file that parses as none of them is judged against
// (amct::KindEvidence), and the shape check of Ascend chip names (amct::checkHardwareName).
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctRules.h"

#include <gtest/gtest.h>

namespace qspec {
namespace {

TEST(AmctKindEvidence, QatBlocksDecideOverOnePtqField) {
  amct::AmctDocument doc;
  std::vector<amct::ParseError> errors;
  amct::KindEvidence ev;
  EXPECT_FALSE(
      amct::parseAmctConfig("batch_num: 2\n"
                            "do_fusion: false\n"
                            "retrain_data_quant_config { ulq_quantize { dst_type: INT8 } }\n"
                            "retrain_weight_quant_config { arq_retrain { dst_type: INT8 } }\n",
                            doc, errors, nullptr, &ev));
  EXPECT_EQ(ev.kind, amct::ConfigKind::QAT);
  EXPECT_EQ(ev.field, "retrain_data_quant_config");
  EXPECT_EQ(ev.line, 3u);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].line, 2u); // at do_fusion, not at the QAT block
  EXPECT_NE(errors[0].message.find("AMCTRetrainConfig"), std::string::npos) << errors[0].message;
}

TEST(AmctKindEvidence, TieKeepsTheFurthestParse) {
  amct::AmctDocument doc;
  std::vector<amct::ParseError> errors;
  amct::KindEvidence ev;
  // An unknown field every message lacks: the fields do not decide.
  EXPECT_FALSE(
      amct::parseAmctConfig("batch_num: 1\njoint_quant: false\n", doc, errors, nullptr, &ev));
  EXPECT_TRUE(ev.field.empty());
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].message.find("AMCTPytorchProto.AMCTConfig"), std::string::npos);
}

TEST(AmctHardwareName, ShapeAndDidYouMean) {
  EXPECT_EQ(amct::checkHardwareName("Ascend950PR"), "");
  EXPECT_EQ(amct::checkHardwareName("ascend 310p3"), "");
  EXPECT_EQ(amct::checkHardwareName("Ascend910B"), "");
  std::string why = amct::checkHardwareName("Ascend95OPR");
  EXPECT_NE(why.find("did you mean 'Ascend950PR'"), std::string::npos) << why;
  why = amct::checkHardwareName("950DT");
  EXPECT_NE(why.find("did you mean 'Ascend950DT'"), std::string::npos) << why;
  why = amct::checkHardwareName("gpu");
  EXPECT_NE(why, "");
  EXPECT_EQ(why.find("did you mean"), std::string::npos) << why;
}

} // namespace
} // namespace qspec
