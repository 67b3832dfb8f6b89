// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/calibration_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rooftop::gui {

namespace {

/// "MEASURED ms" -> "Measured ms", "RESIDUAL %" -> "Residual %": the CLI's shouted headers in sentence case.
QString headerText(const std::string& cell) {
    QStringList words = QString::fromStdString(cell).split(QLatin1Char(' '));
    for (int i = 0; i < words.size(); ++i) {
        QString& word = words[i];
        if (word.size() > 1 && word == word.toUpper() && word != word.toLower())
            word = i == 0 ? word.left(1) + word.mid(1).toLower() : word.toLower();
    }
    return words.join(QLatin1Char(' '));
}

void fillTable(QTableWidget* table, const TextTable& source) {
    table->clear();
    table->setRowCount(0);
    if (source.rows.empty()) return;
    const std::vector<std::string>& header = source.rows.front();
    table->setColumnCount(int(header.size()));
    QStringList labels;
    for (const std::string& cell : header)
        labels << headerText(cell);
    table->setHorizontalHeaderLabels(labels);
    table->setRowCount(int(source.rows.size()) - 1);
    for (size_t r = 1; r < source.rows.size(); ++r)
        for (size_t c = 0; c < source.rows[r].size() && c < header.size(); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(source.rows[r][c]));
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            // the mode and the precision read as labels; the line and the rest are numbers
            item->setTextAlignment(c == 1 || c == 3 ? Qt::AlignLeft | Qt::AlignVCenter
                                                    : Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(int(r - 1), int(c), item);
        }
    table->resizeColumnsToContents();
}

QString linesHtml(const std::vector<std::string>& lines) {
    QStringList escaped;
    for (const std::string& line : lines)
        escaped << QString::fromStdString(line).toHtmlEscaped();
    return escaped.join(QStringLiteral("<br>"));
}

QTableWidget* newTable(QWidget* parent, const QString& name) {
    auto* table = new QTableWidget(parent);
    table->setObjectName(name);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

QString tableText(const QTableWidget* table) {
    QString text;
    for (int c = 0; c < table->columnCount(); ++c)
        text += (c ? QStringLiteral("\t") : QString()) + table->horizontalHeaderItem(c)->text();
    for (int r = 0; r < table->rowCount(); ++r) {
        text += QLatin1Char('\n');
        for (int c = 0; c < table->columnCount(); ++c)
            text += (c ? QStringLiteral("\t") : QString()) +
                    (table->item(r, c) ? table->item(r, c)->text() : QString());
    }
    return text;
}

} // namespace

CalibrationView::CalibrationView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    fit_ = new QLabel(this);
    fit_->setObjectName(QStringLiteral("CalibrationFit"));
    fit_->setWordWrap(true);
    fit_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tabs_ = new QTabWidget(this);
    runs_ = newTable(tabs_, QStringLiteral("CalibrationRuns"));
    auto* powerPage = new QWidget(tabs_);
    auto* powerLayout = new QVBoxLayout(powerPage);
    power_ = newTable(powerPage, QStringLiteral("CalibrationPower"));
    powerNotes_ = new QLabel(powerPage);
    powerNotes_->setWordWrap(true);
    powerNotes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    powerLayout->addWidget(powerNotes_);
    powerLayout->addWidget(power_, 1);
    tabs_->addTab(runs_, tr("Latency by run"));
    tabs_->addTab(powerPage, tr("Power by run"));
    footer_ = new QLabel(this);
    footer_->setWordWrap(true);
    footer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(fit_);
    layout->addWidget(tabs_, 1);
    layout->addWidget(footer_);
}

void CalibrationView::showReport(const CalibrationReportParts& parts) {
    fit_->setText("<b>" + QString::fromStdString(parts.headline).toHtmlEscaped() + "</b><br>" +
                  linesHtml(parts.fitLines));
    fillTable(runs_, parts.runs);
    tabs_->setTabToolTip(0, QString::fromStdString(parts.runs.title));
    fillTable(power_, parts.power);
    std::vector<std::string> notes{parts.power.title};
    notes.insert(notes.end(), parts.powerLines.begin(), parts.powerLines.end());
    powerNotes_->setText(linesHtml(notes));
    footer_->setText(QString::fromStdString(parts.footer).toHtmlEscaped());
}

void CalibrationView::clear() {
    fit_->clear();
    fillTable(runs_, {});
    fillTable(power_, {});
    powerNotes_->clear();
    footer_->clear();
}

QString CalibrationView::text() const {
    return fit_->text() + QLatin1Char('\n') + tableText(runs_) + QLatin1Char('\n') + powerNotes_->text() +
           QLatin1Char('\n') + tableText(power_) + QLatin1Char('\n') + footer_->text();
}

} // namespace rooftop::gui
