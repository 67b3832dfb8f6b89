// SPDX-License-Identifier: GPL-3.0-or-later
// The window's training step: the analysis toolbar's phase (an inference or a training step with its
// optimizer) in the request, and the layer table's totals line naming the step's parts. The Dims field at
// 1280 x 800 in both palettes: it shrinks before anything folds, and "Set dims…" opens a popup when it is
// folded.
#include "gui/analysis_toolbar.h"
#include "gui/dims_popup.h"
#include "gui/main_window.h"
#include "gui/theme.h"
#include "models/layer_table_model.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QtTest>
#include <algorithm>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

/// Whether the toolbar shows its » (something folded behind it).
bool folds(const AnalysisToolbar& bar) {
    const auto* more = bar.findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
    return more && more->isVisible();
}

/// The window at this size, laid out; false when it cannot be that narrow (its minimum size).
bool resizeTo(gui::MainWindow& window, int width, int height) {
    window.setGeometry(0, 0, width, height);
    QTest::qWait(20);
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents(); // the toolbar refits the field after its own layout
    return window.width() == width;
}

} // namespace

class TestAnalysisToolbar : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theDimsFieldShrinksBeforeAnythingFolds() {
        for (const gui::Theme theme : {gui::Theme::Light, gui::Theme::Dark}) {
            const char* name = theme == gui::Theme::Dark ? "dark" : "light";
            gui::MainWindow window;
            window.setTheme(theme);
            window.show();
            window.openModel(QString::fromStdString(test::samplePath("bert_base")),
                             QStringLiteral("agx-orin-64gb"));
            QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 60000);
            window.setDims(QStringLiteral("sequence=128"));
            AnalysisToolbar& bar = *window.parts().toolbar;
            QLineEdit* dims = bar.dimsEdit();
            // at 1280 x 800 the field is in view, nothing behind the »
            QVERIFY(resizeTo(window, 1280, 800));
            QVERIFY2(
                dims->isVisible() && !folds(bar),
                qPrintable(QStringLiteral("%1: Dims %2").arg(name, dims->isVisible() ? "shown" : "folded")));
            QVERIFY2(dims->geometry().right() < bar.width(), name);
            // and it shows the dims whole, not scrolled to their end ("uence=128")
            dims->setCursorPosition(0);
            dims->repaint(); // a line edit scrolls when it paints
            const int start = dims->inputMethodQuery(Qt::ImCursorRectangle).toRect().center().x();
            dims->setCursorPosition(int(dims->text().size()));
            dims->repaint();
            const int end = dims->inputMethodQuery(Qt::ImCursorRectangle).toRect().center().x();
            QVERIFY2(end - start >= dims->fontMetrics().horizontalAdvance(dims->text()) - 1,
                     qPrintable(QStringLiteral("%1: %2 px of %3 shown")
                                    .arg(name)
                                    .arg(end - start)
                                    .arg(dims->fontMetrics().horizontalAdvance(dims->text()))));
            // from a wide window down: the field gives way, down to its least width, before the toolbar folds
            // it behind the »
            QVERIFY(resizeTo(window, 1920, 800));
            const int full = dims->width();
            int narrowest = full, last = full;
            for (int width = 1900; width >= 600; width -= 20) {
                if (!resizeTo(window, width, 800) || !dims->isVisible()) break; // the least width, or folded
                QVERIFY2(!folds(bar) && dims->geometry().right() < bar.width(),
                         qPrintable(QStringLiteral("%1 at %2").arg(name).arg(width)));
                last = dims->width();
                narrowest = std::min(narrowest, last);
            }
            QVERIFY2(narrowest < full,
                     qPrintable(QStringLiteral("%1: the field stays %2 px wide").arg(name).arg(full)));
            QCOMPARE(last, narrowest); // it folds, if at all, only at its least width
            QVERIFY(resizeTo(window, 1920, 800));
            QCOMPARE(dims->width(), full); // wide again: its room back
            window.setTheme(gui::Theme::Light);
        }
    }

    void setDimsOpensAPopupWhileTheFieldIsFolded() {
        gui::MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("bert_base")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 60000);
        AnalysisToolbar& bar = *window.parts().toolbar;
        resizeTo(window, 600, 600);
        if (bar.dimsEdit()->isVisible()) bar.hide(); // the window is not that narrow: the toolbar closed
        QVERIFY(!bar.dimsEdit()->isVisible());       // folded behind the », or its toolbar hidden
        bar.editDims(QStringLiteral("sequence=1"));
        QVERIFY(bar.dimsPopup() != nullptr);
        QTRY_VERIFY(bar.dimsPopup()->isVisible());
        QCOMPARE(bar.dimsPopup()->edit()->selectedText(), QStringLiteral("1"));
        QSignalSpy edited(&bar, &AnalysisToolbar::dimsEdited);
        bar.dimsPopup()->edit()->setText(QStringLiteral("sequence=64"));
        emit bar.dimsPopup()->edit()->returnPressed();
        QCOMPARE(edited.count(), 1);
        QCOMPARE(bar.dimsText(), QStringLiteral("sequence=64"));
        QVERIFY(!bar.dimsPopup()->isVisible());
    }

    void thePhaseBecomesTheRequestsPhaseAndOptimizer() {
        AnalysisToolbar bar;
        AnalysisRequest inference;
        bar.fillRequest(inference);
        QCOMPARE(inference.settings.phase, Phase::Inference);

        QSignalSpy asked(&bar, &AnalysisToolbar::requestInputsChanged);
        bar.phaseBox()->setCurrentIndex(bar.phaseBox()->findData("sgd"));
        QCOMPARE(asked.count(), 1); // the window asks again
        AnalysisRequest step;
        bar.fillRequest(step);
        QCOMPARE(step.settings.phase, Phase::Training);
        QCOMPARE(step.settings.optimizer, Optimizer::Sgd);
        bar.phaseBox()->setCurrentIndex(bar.phaseBox()->findData("adam"));
        bar.fillRequest(step);
        QCOMPARE(step.settings.optimizer, Optimizer::Adam);
    }

    void theTotalsLineNamesATrainingStep() {
        models::LayerTableModel model;
        model.setWorkload(test::analyzeSample("resnet18"));
        QVERIFY(!model.totalsText().contains("training step"));
        AnalysisSettings step;
        step.phase = Phase::Training;
        step.optimizer = Optimizer::Sgd;
        model.setWorkload(test::analyzeSample("resnet18", step));
        QVERIFY2(model.totalsText().startsWith("training step (forward "), qPrintable(model.totalsText()));
        QVERIFY(model.totalsText().contains("backward "));
    }
};

ROOFTOP_TEST_CLASS(TestAnalysisToolbar)
#include "test_analysis_toolbar.moc"
