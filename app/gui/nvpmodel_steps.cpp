// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/nvpmodel_steps.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>

namespace rooftop::gui {

namespace {

// A command's line: the wheel scrolls the page it sits on, not the line sideways (its scroll bar does that).
class CommandLine : public QTextEdit {
public:
    using QTextEdit::QTextEdit;

protected:
    void wheelEvent(QWheelEvent* event) override { event->ignore(); }
};

/// A command as selectable text on one line, scrolled sideways where the dock is narrower than it.
QTextEdit* commandText(const QString& command, const QFont& font, QWidget* parent) {
    auto* text = new CommandLine(parent);
    text->setReadOnly(true);
    text->setFont(font);
    text->setPlainText(command);
    text->setToolTip(command);
    // one line, scrolled sideways when narrow: a wrap would break paths at their slashes ("/etc/
    // nvpmodel.conf") and read as two arguments to whoever types it
    text->setLineWrapMode(QTextEdit::NoWrap);
    text->setFrameShape(QFrame::NoFrame);
    text->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    text->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    text->document()->setDocumentMargin(2);
    const auto fit = [text] {
        const QScrollBar* bar = text->horizontalScrollBar();
        const int scroll = bar->maximum() > 0 ? bar->sizeHint().height() : 0;
        text->setFixedHeight(int(std::ceil(text->document()->size().height())) + 1 + scroll);
    };
    QObject::connect(text->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged,
                     text, fit);
    QObject::connect(text->horizontalScrollBar(), &QScrollBar::rangeChanged, text, fit);
    fit();
    return text;
}

} // namespace

NvpmodelSteps::NvpmodelSteps(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>nvpmodel commands</b>"), this));
    auto* list = new QWidget(this);
    steps_ = new QVBoxLayout(list);
    steps_->setContentsMargins(0, 0, 0, 0);
    steps_->setSpacing(2);
    layout->addWidget(list);
    auto* buttons = new QHBoxLayout;
    saveBlock_ = new QPushButton(tr("Save mode block as…"), this);
    saveBlock_->setToolTip(tr("The POWER_MODEL block of this custom mode, for /etc/nvpmodel.conf"));
    copyScript_ = new QPushButton(tr("Copy all as a script"), this);
    copyScript_->setToolTip(tr("A shell script with the block and every step; the way back as comments"));
    buttons->addWidget(saveBlock_);
    buttons->addWidget(copyScript_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(saveBlock_, &QPushButton::clicked, this, &NvpmodelSteps::saveBlockAs);
    connect(copyScript_, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(script()); });
    showGuide({});
}

void NvpmodelSteps::showGuide(const NvpmodelGuide& guide) {
    guide_ = guide;
    while (QLayoutItem* item = steps_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    commands_.clear();
    titles_.clear();
    const QFont monospace = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (size_t i = 0; i < guide.steps.size(); ++i) {
        const GuideStep& step = guide.steps[i];
        const QString title = QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(step.title));
        titles_ << title;
        auto* heading =
            new QLabel(QStringLiteral("<b>%1</b>%2")
                           .arg(title.toHtmlEscaped(),
                                step.note.empty() ? QString()
                                                  : QStringLiteral(" — ") +
                                                        QString::fromStdString(step.note).toHtmlEscaped()),
                       this);
        heading->setWordWrap(true);
        steps_->addWidget(heading);
        for (const GuideCommand& c : step.commands) {
            const QString command = QString::fromStdString(c.command);
            commands_ << command;
            auto* row = new QWidget(this);
            auto* grid = new QGridLayout(row);
            grid->setContentsMargins(12, 0, 0, 2);
            grid->setVerticalSpacing(0);
            auto* line = commandText(command, monospace, row);
            auto* comment = new QLabel(QString::fromStdString(c.comment), row);
            comment->setWordWrap(true);
            comment->setForegroundRole(QPalette::PlaceholderText);
            auto* copy = new QToolButton(row);
            copy->setText(tr("Copy"));
            copy->setToolTip(tr("Copy this command"));
            connect(copy, &QToolButton::clicked, this,
                    [command] { QApplication::clipboard()->setText(command); });
            grid->addWidget(line, 0, 0);
            grid->addWidget(copy, 0, 1, Qt::AlignTop);
            grid->addWidget(comment, 1, 0, 1, 2);
            grid->setColumnStretch(0, 1);
            steps_->addWidget(row);
        }
    }
    saveBlock_->setVisible(!guide.block.empty());
    copyScript_->setVisible(!guide.steps.empty());
}

QString NvpmodelSteps::script() const {
    return QString::fromStdString(guideScript(guide_));
}

bool NvpmodelSteps::saveBlock(const QString& path, QString* why) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(guide_.block)) < 0 ||
        !file.commit()) {
        if (why) *why = file.errorString();
        return false;
    }
    return true;
}

void NvpmodelSteps::saveBlockAs() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save mode block as"), QString::fromStdString(guide_.blockFile),
                                     tr("nvpmodel configuration (*.conf);;All files (*)"));
    if (path.isEmpty()) return;
    QString why;
    if (!saveBlock(path, &why))
        QMessageBox::warning(this, tr("Save mode block as"), tr("%1: %2").arg(path, why));
}

} // namespace rooftop::gui
