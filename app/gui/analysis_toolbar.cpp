// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/analysis_toolbar.h"

#include "core/device/runtime_profile.h"
#include "core/onnx/dim_binding.h"
#include "gui/dims_popup.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <algorithm>

namespace rooftop::gui {

namespace {

constexpr int kHasGridRole = Qt::UserRole + 1; ///< on board items: whether the board has a custom grid
const QString kGridModeSet = QStringLiteral("grid");
constexpr int RuntimeNameRole = Qt::UserRole + 1; ///< on runtime items from a file (data: the file): the name

} // namespace

AnalysisToolbar::AnalysisToolbar(QWidget* parent) : QToolBar(tr("Analysis"), parent) {
    setObjectName(QStringLiteral("AnalysisToolbar"));
    modeBar_ = new QToolBar(tr("Modes"), this); // the window takes it into a row of its own
    modeBar_->setObjectName(QStringLiteral("ModesToolbar"));
    auto labelledOn = [](QToolBar* bar, const QString& text, QWidget* widget) {
        bar->addWidget(new QLabel(QStringLiteral(" %1 ").arg(text), bar));
        bar->addWidget(widget);
    };
    auto labelled = [this, labelledOn](const QString& text, QWidget* widget) {
        labelledOn(this, text, widget);
    };
    boardBox_ = new QComboBox(this);
    boardBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // a narrow bar may squeeze the board's name (after the Dims field): a minimum of its own, so that the
    // layout does not depend on when the box last measured its contents (a palette switch measures again)
    boardBox_->setMinimumWidth(
        boardBox_->fontMetrics().horizontalAdvance(QStringLiteral("NVIDIA Jetson AGX Orin")) +
        boardBox_->sizeHint().height() * 2);
    labelled(tr("Board"), boardBox_);
    precisionBox_ = new QComboBox(this);
    for (const char* name : {"as-model", "fp32", "fp16", "int8", "fp8", "fp4"})
        precisionBox_->addItem(QString::fromLatin1(name));
    labelled(tr("Precision"), precisionBox_);
    batchBox_ = new QSpinBox(this);
    batchBox_->setRange(1, kMaxBatch);
    labelled(tr("Batch"), batchBox_);
    phaseBox_ = new QComboBox(this);
    phaseBox_->addItem(tr("inference"), QStringLiteral("inference"));
    for (const char* optimizer : {"adam", "momentum", "sgd"})
        phaseBox_->addItem(tr("training step · %1").arg(QString::fromLatin1(optimizer)),
                           QString::fromLatin1(optimizer));
    phaseBox_->setToolTip(
        tr("One inference, or one training minibatch: forward, backward and the optimizer's update "
           "(latency and energy are then the step's; docs/training.md)"));
    labelled(tr("Run"), phaseBox_);
    trafficBox_ = new QComboBox(this);
    trafficBox_->addItem(tr("per-node"), QStringLiteral("per-node"));
    trafficBox_->addItem(tr("fused"), QStringLiteral("fused"));
    trafficBox_->setToolTip(
        tr("DRAM traffic model: every node reads and writes DRAM, or TensorRT-like fusion"));
    labelled(tr("Traffic"), trafficBox_);
    runtimeBox_ = new QComboBox(this);
    for (const RuntimeProfile& runtime : knownRuntimes())
        runtimeBox_->addItem(QString::fromStdString(runtime.name));
    labelled(tr("Runtime"), runtimeBox_);
    dimsEdit_ = new QLineEdit(this);
    dimsEdit_->setObjectName(QStringLiteral("DimsEdit"));
    dimsEdit_->setPlaceholderText(tr("NAME=VALUE, e.g. sequence=128"));
    dimsEdit_->setToolTip(tr("Values for the model's symbolic input dims (NAME=VALUE, comma-separated); an "
                             "unbound one is assumed to be 1. Remembered per model."));
    dimsEdit_->setClearButtonEnabled(true);
    dimsPreferredWidth_ =
        std::max(dimsEdit_->sizeHint().width(), dimsWidthFor(QStringLiteral("sequence=128, past=0")));
    dimsLeastWidth_ = dimsWidthFor(QStringLiteral("sequence=1"));
    dimsEdit_->setFixedWidth(dimsPreferredWidth_);
    labelled(tr("Dims"), dimsEdit_);
    overlayMenu_ = new QMenu(this);
    overlayButton_ = new QToolButton(modeBar_);
    overlayButton_->setText(tr("Roofs"));
    overlayButton_->setToolTip(tr("Power modes whose roofs the plots overlay"));
    overlayButton_->setMenu(overlayMenu_);
    overlayButton_->setPopupMode(QToolButton::InstantPopup);
    modeBar_->addWidget(overlayButton_);
    activeModeBox_ = new QComboBox(modeBar_);
    activeModeBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    activeModeBox_->setToolTip(tr("The mode whose predictions the layer table and the points show: the "
                                  "recommended one unless you choose another"));
    labelledOn(modeBar_, tr("Points for"), activeModeBox_);
    modeSetBox_ = new QComboBox(modeBar_);
    modeSetBox_->addItem(tr("stock modes"), QStringLiteral("stock"));
    modeSetBox_->addItem(tr("custom grid"), kGridModeSet);
    modeSetBox_->addItem(tr("stock + grid"), QStringLiteral("all"));
    modeSetBox_->setToolTip(tr("The modes the advisor chooses among"));
    labelledOn(modeBar_, tr("Advise over"), modeSetBox_);

    connect(boardBox_, &QComboBox::currentIndexChanged, this, [this] {
        updateModeSetChoices();
        emit requestInputsChanged();
    });
    for (QComboBox* box : {precisionBox_, phaseBox_, trafficBox_, runtimeBox_, modeSetBox_})
        connect(box, &QComboBox::currentIndexChanged, this, &AnalysisToolbar::requestInputsChanged);
    connect(batchBox_, &QSpinBox::valueChanged, this, &AnalysisToolbar::requestInputsChanged);
    connect(activeModeBox_, &QComboBox::currentIndexChanged, this, &AnalysisToolbar::shownModesChanged);
    connect(dimsEdit_, &QLineEdit::editingFinished, this, &AnalysisToolbar::commitDims);
}

void AnalysisToolbar::commitDims() {
    const QString text = dimsEdit_->text().trimmed();
    if (text == appliedDims_) return;
    const QString why = dimsError(text);
    dimsEdit_->setStyleSheet(why.isEmpty() ? QString() : QStringLiteral("QLineEdit { color: #c62828; }"));
    if (!why.isEmpty()) {
        QMessageBox::warning(this, tr("Dims"), why);
        return;
    }
    appliedDims_ = text;
    fitDimsField();
    emit dimsEdited(text);
    emit requestInputsChanged();
}

void AnalysisToolbar::resizeEvent(QResizeEvent* event) {
    QToolBar::resizeEvent(event);
    fitDimsField();
}

bool AnalysisToolbar::event(QEvent* event) {
    const bool handled = QToolBar::event(event);
    // a combo box that grew with its contents (a longer board name) or another style asks for a new layout
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::StyleChange) fitDimsField();
    return handled;
}

void AnalysisToolbar::fitDimsField() {
    if (!dimsEdit_ || !layout()) return;
    int width = dimsPreferredWidth_;
    if (orientation() == Qt::Horizontal && !isFloating()) {
        // the bar's preferred width less the field's own is what the other inputs take
        const int others = layout()->sizeHint().width() - dimsEdit_->minimumWidth();
        // at least the dims given, whole ("uence=128" read as another dim), up to the preferred width
        const int least = std::clamp(dimsWidthFor(dimsEdit_->text()), dimsLeastWidth_, dimsPreferredWidth_);
        width = std::clamp(this->width() - others, least, dimsPreferredWidth_);
    }
    if (width != dimsEdit_->minimumWidth()) dimsEdit_->setFixedWidth(width);
}

int AnalysisToolbar::dimsWidthFor(const QString& text) const {
    // a line edit's size hint is 17 x-widths of text plus its frame, margins and clear button
    const QFontMetrics metrics = dimsEdit_->fontMetrics();
    const int chrome = dimsEdit_->sizeHint().width() - 17 * metrics.horizontalAdvance(QLatin1Char('x'));
    constexpr int kCursor = 2;
    return metrics.horizontalAdvance(text) + chrome + kCursor;
}

QString AnalysisToolbar::dimsError(const QString& text) {
    DimBindings bindings;
    try {
        parseDimList(text.toStdString(), bindings, tr("Dims").toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

void AnalysisToolbar::setDimsText(const QString& text) {
    appliedDims_ = dimsError(text).isEmpty() ? text.trimmed() : QString();
    dimsEdit_->setText(appliedDims_);
    dimsEdit_->setStyleSheet(QString());
    fitDimsField();
}

QString AnalysisToolbar::dimsText() const {
    return appliedDims_;
}

void AnalysisToolbar::editDims(const QString& text, QWidget* anchor) {
    if (!dimsEdit_->isVisible()) { // folded behind the toolbar's », or the toolbar hidden
        if (!dimsPopup_) {
            dimsPopup_ = new DimsPopup(this);
            connect(dimsPopup_, &DimsPopup::accepted, this, [this](const QString& typed) {
                dimsEdit_->setText(typed);
                commitDims();
            });
        }
        dimsPopup_->open(text, anchor);
        return;
    }
    dimsEdit_->setText(text);
    dimsEdit_->setFocus(Qt::OtherFocusReason);
    selectFirstDimValue(*dimsEdit_);
}

void AnalysisToolbar::setBoards(const std::vector<DeviceSpec>& boards) {
    const QString keep = boardId();
    {
        const QSignalBlocker block(boardBox_);
        boardBox_->clear();
        for (const DeviceSpec& board : boards) {
            boardBox_->addItem(QString::fromStdString(board.name), QString::fromStdString(board.id));
            boardBox_->setItemData(boardBox_->count() - 1, board.grid.size() > 0, kHasGridRole);
        }
        boardBox_->setCurrentIndex(std::max(0, boardBox_->findData(keep)));
    }
    updateModeSetChoices();
}

bool AnalysisToolbar::selectBoard(const QString& deviceId) {
    const int index = boardBox_->findData(deviceId);
    if (index < 0) return false;
    {
        const QSignalBlocker block(boardBox_);
        boardBox_->setCurrentIndex(index);
    }
    updateModeSetChoices();
    return true;
}

QString AnalysisToolbar::boardId() const {
    return boardBox_->currentData().toString();
}

void AnalysisToolbar::updateModeSetChoices() {
    const bool hasGrid = boardBox_->currentIndex() < 0 || boardBox_->currentData(kHasGridRole).toBool();
    const int gridRow = modeSetBox_->findData(kGridModeSet);
    if (auto* model = qobject_cast<QStandardItemModel*>(modeSetBox_->model())) {
        QStandardItem* item = model->item(gridRow);
        item->setEnabled(hasGrid);
        item->setToolTip(hasGrid ? QString() : tr("This board has no custom-clock grid"));
    }
    if (!hasGrid && modeSetBox_->currentIndex() == gridRow) {
        const QSignalBlocker block(modeSetBox_); // part of the board change, which asks again itself
        modeSetBox_->setCurrentIndex(modeSetBox_->findData(QStringLiteral("stock")));
    }
}

QString AnalysisToolbar::addRuntimeFile(const QString& path) {
    std::vector<RuntimeProfile> runtimes;
    try {
        runtimes = loadRuntimeFile(path.toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    const QString file = QFileInfo(path).fileName();
    int first = -1;
    for (const RuntimeProfile& runtime : runtimes) {
        const QString name = QString::fromStdString(runtime.name);
        int row = -1;
        for (int i = 0; i < runtimeBox_->count() && row < 0; ++i)
            if (runtimeBox_->itemData(i).toString() == path &&
                runtimeBox_->itemData(i, RuntimeNameRole) == name)
                row = i;
        if (row < 0) {
            runtimeBox_->addItem(tr("%1 (%2)").arg(name, file), path);
            row = runtimeBox_->count() - 1;
            runtimeBox_->setItemData(row, name, RuntimeNameRole);
            runtimeBox_->setItemData(row, QString::fromStdString(runtime.basis), Qt::ToolTipRole);
        }
        if (first < 0) first = row;
    }
    if (runtimeBox_->currentIndex() == first)
        emit requestInputsChanged(); // the file may have changed
    else
        runtimeBox_->setCurrentIndex(first); // asks again through the signal
    return {};
}

void AnalysisToolbar::fillRequest(AnalysisRequest& request) const {
    request.deviceId = boardId().toStdString();
    request.settings.precision =
        parsePrecision(precisionBox_->currentText().toStdString()).value_or(request.settings.precision);
    request.settings.traffic = parseTrafficView(trafficBox_->currentData().toString().toStdString())
                                   .value_or(request.settings.traffic);
    const QString phase = phaseBox_->currentData().toString();
    request.settings.phase = phase == "inference" ? Phase::Inference : Phase::Training;
    if (request.settings.phase == Phase::Training)
        request.settings.optimizer = parseOptimizer(phase.toStdString()).value_or(request.settings.optimizer);
    if (batchBox_->value() > 1) request.settings.dims.batch = batchBox_->value();
    try {
        parseDimList(appliedDims_.toStdString(), request.settings.dims, tr("Dims").toStdString());
    } catch (const std::exception&) {
        // setDimsText and the editor keep only valid dims
    }
    const QString runtimeFile = runtimeBox_->currentData().toString();
    request.runtime.name = runtimeFile.isEmpty()
                               ? runtimeBox_->currentText().toStdString()
                               : runtimeBox_->currentData(RuntimeNameRole).toString().toStdString();
    request.runtime.file = runtimeFile.toStdString();
    request.runtime.nameGiven = !runtimeFile.isEmpty();
    request.modes = modeSetBox_->currentData().toString().toStdString();
}

void AnalysisToolbar::showStockModes(const AnalysisResult& result) {
    overlayMenu_->clear();
    for (size_t i = 0; i < result.stockPredictions.size(); ++i) {
        const QString name = QString::fromStdString(result.stockPredictions[i].profile.mode.name);
        QAction* action = overlayMenu_->addAction(name);
        action->setCheckable(true);
        action->setChecked(true);
        action->setData(int(i));
        connect(action, &QAction::toggled, this, &AnalysisToolbar::shownModesChanged);
    }
}

void AnalysisToolbar::setShownModeChoices(const std::vector<ShownModeChoice>& choices,
                                          const QString& selected) {
    const QSignalBlocker block(activeModeBox_);
    activeModeBox_->clear();
    for (const ShownModeChoice& choice : choices)
        activeModeBox_->addItem(choice.label, choice.key);
    activeModeBox_->setCurrentIndex(std::max(0, activeModeBox_->findData(selected)));
}

bool AnalysisToolbar::selectShownMode(const QString& key) {
    const int index = activeModeBox_->findData(key);
    if (index < 0) return false;
    const QSignalBlocker block(activeModeBox_);
    activeModeBox_->setCurrentIndex(index);
    return true;
}

QString AnalysisToolbar::shownModeKey() const {
    return activeModeBox_->currentData().toString();
}

std::vector<int> AnalysisToolbar::overlaidStockModes() const {
    std::vector<int> overlaid;
    for (QAction* action : overlayMenu_->actions())
        if (action->isChecked()) overlaid.push_back(action->data().toInt());
    return overlaid;
}

} // namespace rooftop::gui
