// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace rooftop::gui {

/// The window's status bar: a line of text and a busy indicator while an analysis runs.
class WindowStatus : public QObject {
    Q_OBJECT
public:
    /// Adds the line and the indicator to `bar`.
    explicit WindowStatus(QStatusBar* bar);

    /// The line's text.
    QString text() const;
    /// Replaces the line (and keeps the indicator as it is).
    void setText(const QString& text);
    /// Shows or hides the busy indicator.
    void setBusy(bool busy);
    /// What an analysis counted: the model's layers and MACs, the board, the ceilings, the predictor and the
    /// assumed dims.
    void showModelFacts(const AnalysisResult& result, const QString& modelPath);

private:
    QLabel* line_ = nullptr;
    QProgressBar* progress_ = nullptr;
};

} // namespace rooftop::gui
