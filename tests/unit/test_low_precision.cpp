// SPDX-License-Identifier: GPL-3.0-or-later
// --precision fp8 and fp4 (NVFP4): the names, the bytes (4-bit values plus one FP8 scale per 16, exact), the
// compute classes, the tensor ceilings per mode on Jetson AGX Thor, and the one line on a board without the
// precision (FP8 / FP4 on Orin) instead of a prediction, through the library and the command line.
#include "core/common/errors.h"
#include "core/cost/traffic.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/graph/data_type.h"
#include "core/roofline/prediction.h"
#include "core/roofline/roofline_curves.h"
#include "support/cli_runner.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// One 4096 x 4096 fully connected layer on a 1 x 4096 activation.
const char* const matmulModel = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,4096] x) => (float[1,4096] y)
    <float[4096,4096] w = {0.0}> {
        y = MatMul(x, w)
    })";

AnalysisSettings at(Precision precision) {
    AnalysisSettings settings;
    settings.precision = precision;
    return settings;
}

ModeProfile profileOf(const DeviceSpec& device, const char* mode) {
    RuntimeProfile ideal;
    ideal.name = "ideal";
    const PowerMode m = powerModeFrom(device, *device.stockModeNamed(mode));
    return deriveModeProfile(device, m, ideal);
}

QString predictionError(const Workload& workload, const ModeProfile& profile) {
    try {
        predict(workload, profile);
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class LowPrecision : public QObject {
    Q_OBJECT
private slots:
    void namesRoundTrip() {
        QVERIFY(parsePrecision("fp8") == Precision::FP8);
        QVERIFY(parsePrecision("fp4") == Precision::FP4);
        QVERIFY(parseRunPrecision("fp4") == Precision::FP4);
        QVERIFY(!parseRunPrecision("as-model"));
        QCOMPARE(precisionName(Precision::FP8), std::string("fp8"));
        QCOMPARE(precisionName(Precision::FP4), std::string("fp4"));
        QVERIFY(!parsePrecision("nvfp4"));
        QCOMPARE(applyPrecision(DataType::Float32, Precision::FP8), DataType::Float8E4M3FN);
        QCOMPARE(applyPrecision(DataType::BFloat16, Precision::FP4), DataType::Float4E2M1);
        QCOMPARE(applyPrecision(DataType::Int64, Precision::FP4), DataType::Int64); // integers stay
    }

    void nvfp4BytesAreExact() {
        // 4-bit values, two a byte, plus one FP8 E4M3 scale per block of 16 values
        QCOMPARE(precisionBytes(16, DataType::Float32, Precision::FP4), int64_t(8 + 1));
        QCOMPARE(precisionBytes(32, DataType::Float16, Precision::FP4), int64_t(16 + 2));
        QCOMPARE(precisionBytes(17, DataType::Float32, Precision::FP4), int64_t(9 + 2)); // a partial block
        QCOMPARE(precisionBytes(1, DataType::Float32, Precision::FP4), int64_t(1 + 1));
        QCOMPARE(precisionBytes(4096 * 4096, DataType::Float32, Precision::FP4), int64_t(8388608 + 1048576));
        QCOMPARE(precisionBytes(4096, DataType::Float32, Precision::FP8), int64_t(4096));
        QCOMPARE(precisionBytes(3, DataType::Int64, Precision::FP4), int64_t(24)); // not a float: as it is
        QCOMPARE(precisionBytes(0, DataType::Float32, Precision::FP4), int64_t(0));
        // a model stored in FP4 itself and counted as it is: 4 bits, its scales are tensors of their own
        QCOMPARE(precisionBytes(16, DataType::Float4E2M1, Precision::AsModel), int64_t(8));
    }

    void matmulCountsAreExact() {
        const Workload fp32 = analyzeText(matmulModel);
        const Workload fp8 = analyzeText(matmulModel, at(Precision::FP8));
        const Workload fp4 = analyzeText(matmulModel, at(Precision::FP4));
        const LayerCount& l8 = fp8.layers.at(0);
        const LayerCount& l4 = fp4.layers.at(0);
        // FLOPs do not depend on the precision: 2 x 4096 x 4096
        QCOMPARE(fp32.layers.at(0).flops, int64_t(33554432));
        QCOMPARE(l8.flops, int64_t(33554432));
        QCOMPARE(l4.flops, int64_t(33554432));
        // FP8: one byte a value
        QCOMPARE(l8.weightBytes, int64_t(16777216));
        QCOMPARE(l8.inputBytes, int64_t(4096));
        QCOMPARE(l8.outputBytes, int64_t(4096));
        // NVFP4: 4096 x 4096 / 2 + 4096 x 4096 / 16 = 9,437,184; 4096 activations: 2048 + 256 = 2304
        QCOMPARE(l4.weightBytes, int64_t(9437184));
        QCOMPARE(l4.inputBytes, int64_t(2304));
        QCOMPARE(l4.outputBytes, int64_t(2304));
        QCOMPARE(fp4.totals.weightBytes, int64_t(9437184));
        QCOMPARE(fp4.totals.bytes(), int64_t(9437184 + 2 * 2304));
        QCOMPARE(fp32.layers.at(0).weightBytes, int64_t(4 * 16777216)); // and fp32 as before
        // the tensor classes of their own
        QCOMPARE(l8.computeType, DataType::Float8E4M3FN);
        QCOMPARE(l4.computeType, DataType::Float4E2M1);
        QCOMPARE(computeClassOf(l8), ComputeClass::TensorFp8);
        QCOMPARE(computeClassOf(l4), ComputeClass::TensorFp4);
        QCOMPARE(QString(computeClassName(ComputeClass::TensorFp8)), QString("tensor-fp8"));
        QCOMPARE(QString(computeClassName(ComputeClass::TensorFp4)), QString("tensor-fp4"));
    }

    void elementwiseLowPrecisionRunsOnCudaCores() {
        const Workload w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64] x) => (float[1,64] y) {
                y = Relu(x)
            })",
                                       at(Precision::FP4));
        QCOMPARE(computeClassOf(w.layers.at(0)), ComputeClass::Fp16CudaCore);
        QCOMPARE(w.layers.at(0).inputBytes, int64_t(32 + 4));
    }

    void thorCeilingsPerMode() {
        const DeviceSpec& thor = test::shippedDevice("agx-thor-t5000");
        for (const StockMode& s : thor.stockModes) {
            const ModeProfile p = profileOf(thor, s.name.c_str());
            const double perClock = 20.0 * double(s.gpuMaxHz);
            QCOMPARE(p.ceilings.peak(ComputeClass::TensorFp8).value, perClock * 16384);
            QCOMPARE(p.ceilings.peak(ComputeClass::TensorFp4).value, perClock * 32768);
            QCOMPARE(p.ceilings.peak(ComputeClass::TensorFp16).value, perClock * 8192);
            QVERIFY(p.ceilings.peak(ComputeClass::TensorFp4).basis.find("FP4") != std::string::npos);
        }
        // per-op energy: FP8 half and FP4 a quarter of an FP16 tensor FLOP
        const ModeProfile maxn = profileOf(thor, "MAXN");
        const double fp16 = classEnergyPerFlop(maxn.power, ComputeClass::TensorFp16);
        QCOMPARE(classEnergyPerFlop(maxn.power, ComputeClass::TensorFp8), fp16 * 0.5);
        QCOMPARE(classEnergyPerFlop(maxn.power, ComputeClass::TensorFp4), fp16 * 0.25);
    }

    void thorPredictsFp4ExactlyFromItsRoofs() {
        const DeviceSpec& thor = test::shippedDevice("agx-thor-t5000");
        const ModeProfile maxn = profileOf(thor, "MAXN");
        const Workload w = analyzeText(matmulModel, at(Precision::FP4));
        const ModelPrediction p = predict(w, maxn);
        const double bytes = 9437184.0 + 2 * 2304;
        const double flops = 33554432.0;
        const double bandwidth = 4266e6 * 2 * 32;  // 273.024 GB/s
        const double peak = 20.0 * 32768 * 1575e6; // 1032.2 TFLOP/s dense FP4
        QCOMPARE(p.layers.at(0).computeClass, ComputeClass::TensorFp4);
        QCOMPARE(p.layers.at(0).bound, Bound::Memory); // a GEMV: 3.6 FLOP/B against a 3780 FLOP/B ridge
        QVERIFY(std::abs(p.latencySeconds / std::max(bytes / bandwidth, flops / peak) - 1.0) < 1e-12);
    }

    void orinSaysItHasNoFp8InOneLine() {
        const DeviceSpec& orin = test::shippedDevice("agx-orin-64gb");
        const ModeProfile maxn = profileOf(orin, "MAXN");
        const QString fp8 = predictionError(analyzeText(matmulModel, at(Precision::FP8)), maxn);
        QVERIFY2(fp8.contains("NVIDIA Jetson AGX Orin 64GB") && fp8.contains("has no FP8 tensor cores"),
                 qPrintable(fp8));
        QVERIFY2(fp8.contains("--precision fp16 or int8"), qPrintable(fp8));
        QVERIFY(!fp8.contains('\n'));
        const QString fp4 = predictionError(analyzeText(matmulModel, at(Precision::FP4)), maxn);
        QVERIFY2(fp4.contains("has no FP4 tensor cores"), qPrintable(fp4));
        QVERIFY(predictionError(analyzeText(matmulModel, at(Precision::FP16)), maxn).isEmpty());
        // the batch path of the advisor says the same
        QVERIFY_EXCEPTION_THROWN(sweepModes(analyzeText(matmulModel, at(Precision::FP4)), {maxn}),
                                 InputError);
    }

    void commandLine() {
        QTemporaryDir dir;
        const QString model = dir.filePath("fc.onnx");
        QVERIFY(test::writeTextModel(model, matmulModel));
        const test::CliResult orin =
            test::runRooftop({"recommend", model, "--device", "agx-orin-64gb", "--precision", "fp8"});
        QCOMPARE(orin.exitCode, 1);
        QVERIFY2(!orin.err.trimmed().contains('\n'), qPrintable(orin.err));
        QVERIFY2(orin.err.contains("has no FP8 tensor cores"), qPrintable(orin.err));
        const test::CliResult thor =
            test::runRooftop({"recommend", model, "--device", "agx-thor-t5000", "--precision", "fp4"});
        QVERIFY2(thor.exitCode == 0, qPrintable(thor.err));
        const test::CliResult bad = test::runRooftop({"analyze", model, "--precision", "fp6"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("as-model, fp32, fp16, int8, fp8 or fp4"), qPrintable(bad.err));
    }
};

ROOFTOP_TEST_CLASS(LowPrecision)
#include "test_low_precision.moc"
