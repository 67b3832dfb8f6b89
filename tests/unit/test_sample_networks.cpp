// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled sample networks against published totals (torchvision convention: MACs of conv/gemm/matmul),
// shared/reference/counting.md section 6, and whole-model invariants.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeSample;

namespace {

AnalysisSettings bertSettings() {
    AnalysisSettings settings;
    settings.dims.named["sequence"] = 128;
    return settings;
}

AnalysisSettings settingsFor(const QString& name) {
    return name == "bert_base" ? bertSettings() : AnalysisSettings{};
}

} // namespace

class SampleNetworks : public QObject {
    Q_OBJECT
private slots:
    void publishedTorchvisionMacs_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("publishedGmacs");
        QTest::newRow("ResNet-18") << "resnet18" << 1.814;
        QTest::newRow("ResNet-50") << "resnet50" << 4.089;
        QTest::newRow("MobileNetV2") << "mobilenet_v2" << 0.301;
        QTest::newRow("EfficientNet-B0") << "efficientnet_b0" << 0.386;
        QTest::newRow("ViT-B/16") << "vit_b_16" << 17.564;
        QTest::newRow("BERT-base seq 128 (analytic)") << "bert_base" << 11.17;
    }

    void publishedTorchvisionMacs() {
        QFETCH(QString, model);
        QFETCH(double, publishedGmacs);
        const Workload w = analyzeSample(model.toStdString(), settingsFor(model));
        const double gmacs = double(w.totals.torchvisionMacs) / 1e9;
        QVERIFY2(
            std::abs(gmacs / publishedGmacs - 1.0) < 0.005,
            qPrintable(
                QString("%1: %2 GMACs, published %3").arg(model).arg(gmacs, 0, 'f', 4).arg(publishedGmacs)));
    }

    void noUnsupportedOperators_data() {
        QTest::addColumn<QString>("model");
        for (const char* name : {"resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large",
                                 "efficientnet_b0", "vit_b_16", "bert_base", "lstm"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void noUnsupportedOperators() {
        QFETCH(QString, model);
        const Workload w = analyzeSample(model.toStdString(), settingsFor(model));
        QString list;
        for (const auto& op : w.totals.unsupported)
            list += QString::fromStdString(op) + " ";
        QVERIFY2(w.totals.unsupported.empty(), qPrintable(model + ": unsupported " + list));
        for (const auto& layer : w.layers)
            QVERIFY2(layer.supported, layer.name.c_str());
    }

    void resnet50ExactAnalyticMacs() {
        // Sum of conv and fc MACs of torchvision's ResNet-50 v1.5, computed by hand from its layer table.
        QCOMPARE(analyzeSample("resnet50").totals.torchvisionMacs, int64_t(4089184256));
    }

    void batchScalesActivationsNotWeights() {
        AnalysisSettings four;
        four.dims.batch = 4;
        const Workload one = analyzeSample("resnet18");
        const Workload batched = analyzeSample("resnet18", four);
        QCOMPARE(batched.totals.macs, 4 * one.totals.macs);
        QCOMPARE(batched.totals.flops, 4 * one.totals.flops);
        QCOMPARE(batched.totals.weightBytes, one.totals.weightBytes);
        QCOMPARE(batched.totals.inputBytes, 4 * one.totals.inputBytes);
        QCOMPARE(batched.totals.outputBytes, 4 * one.totals.outputBytes);
        QCOMPARE(batched.totals.params, one.totals.params);
    }

    void bertSequenceLengthIsQuadraticInAttention() {
        AnalysisSettings s256 = bertSettings();
        s256.dims.named["sequence"] = 256;
        const Workload w128 = analyzeSample("bert_base", bertSettings());
        const Workload w256 = analyzeSample("bert_base", s256);
        // counting.md: 22.95 GMACs at 256 (21.74 linear + 1.21 attention).
        QVERIFY2(std::abs(double(w256.totals.torchvisionMacs) / 1e9 / 22.95 - 1.0) < 0.005,
                 qPrintable(QString::number(double(w256.totals.torchvisionMacs) / 1e9)));
        QVERIFY(w256.totals.torchvisionMacs > 2 * w128.totals.torchvisionMacs);
    }

    void forcedPrecisionHalvesFloatBytes() {
        AnalysisSettings fp16;
        fp16.precision = Precision::FP16;
        const Workload fp32 = analyzeSample("resnet50");
        const Workload half = analyzeSample("resnet50", fp16);
        QCOMPARE(half.totals.weightBytes * 2, fp32.totals.weightBytes);
        QCOMPARE(half.totals.inputBytes * 2, fp32.totals.inputBytes);
        QCOMPARE(half.totals.outputBytes * 2, fp32.totals.outputBytes);
        QCOMPARE(half.totals.flops, fp32.totals.flops);
        AnalysisSettings int8;
        int8.precision = Precision::INT8;
        QCOMPARE(analyzeSample("resnet50", int8).totals.weightBytes * 4, fp32.totals.weightBytes);
    }

    void fusedTrafficKeepsConvEpiloguesOnChip() {
        AnalysisSettings fused;
        fused.traffic = TrafficView::Fused;
        const Workload perNode = analyzeSample("resnet50");
        const Workload f = analyzeSample("resnet50", fused);
        QCOMPARE(f.totals.flops, perNode.totals.flops);
        QVERIFY(f.totals.bytes() < perNode.totals.bytes());
        QCOMPARE(f.totals.weightBytes, perNode.totals.weightBytes);
        // conv1 -> relu: the conv's output never reaches DRAM, the ReLU reads nothing from it.
        const LayerCount& conv1 = rooftop::test::layerNamed(f, "/conv1/Conv");
        const LayerCount& relu = rooftop::test::layerNamed(f, "/relu/Relu");
        QCOMPARE(conv1.outputBytes, int64_t(0));
        QCOMPARE(relu.inputBytes, int64_t(0));
        QCOMPARE(relu.outputBytes, int64_t(64 * 112 * 112 * 4));
        QVERIFY(conv1.fused && relu.fused);
    }

    void pagodaConventionKeepsMacs() {
        AnalysisSettings pagoda;
        pagoda.convention = Convention::Pagoda;
        const Workload ours = analyzeSample("efficientnet_b0");
        const Workload theirs = analyzeSample("efficientnet_b0", pagoda);
        QCOMPARE(theirs.totals.macs, ours.totals.macs);
        QVERIFY(theirs.totals.flops != ours.totals.flops); // and its bytes: tests/unit/test_pagoda_bytes.cpp
        // Pagoda counts a Gemm without its bias add: 2 x 1280 x 1000 FLOPs.
        QCOMPARE(rooftop::test::layerNamed(theirs, "/classifier/classifier.1/Gemm").flops,
                 int64_t(2 * 1280 * 1000));
        QCOMPARE(rooftop::test::layerNamed(ours, "/classifier/classifier.1/Gemm").flops,
                 int64_t(2 * 1280 * 1000 + 1000));
    }
};

ROOFTOP_TEST_CLASS(SampleNetworks)
#include "test_sample_networks.moc"
