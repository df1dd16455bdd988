// The dashboard: header, the controllers list (or the detail of one, or the help), the queue pane
// in reconcile mode, the log and the key line. State lives in a WatchStore (reduced at once,
// published at most ~10 times a second); this component only reads the published state and
// turns keys and terminal resizes into actions.

import type { ExplainModel } from '../core/explain-types.js';
import type { PlanController } from '../core/plan-types.js';
import { kindShort } from '../render/text.js';
import { Box, useApp, useInput, useStdout, type Key } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useSyncExternalStore, type ReactElement } from 'react';
import { ControllersPane } from './ControllersPane.js';
import { DeploymentPane } from './DeploymentPane.js';
import { DetailPane } from './DetailPane.js';
import { FilterBar } from './FilterBar.js';
import { frameCounts, Header } from './Header.js';
import { HelpOverlay } from './HelpOverlay.js';
import { HistoryPane } from './HistoryPane.js';
import { computeLayout, sizeOf, type Layout } from './layout.js';
import { ColorContext } from './line.js';
import { LogPane } from './LogPane.js';
import { QueuePane } from './QueuePane.js';
import { awaitedBy, historyRows, selectedController, selectedDeployment, type KeyInput, type WatchState } from './state.js';
import type { WatchStore } from './store.js';

export interface AppProps {
  store: WatchStore;
  /** false: no colour at all (NO_COLOR, colour level 0). */
  color?: boolean;
  /** Called once when the user quits (q, Ctrl-C). */
  onQuit?: () => void;
  /** Called when the user presses Ctrl-C (before onQuit): a shell expects exit status 130 then. */
  onInterrupt?: () => void;
  /** Called after every commit, once the frame is written (for measurements). */
  onCommit?: () => void;
}

function toKeyInput(input: string, key: Key): KeyInput {
  return {
    input,
    upArrow: key.upArrow,
    downArrow: key.downArrow,
    leftArrow: key.leftArrow,
    rightArrow: key.rightArrow,
    pageUp: key.pageUp,
    pageDown: key.pageDown,
    home: key.home,
    end: key.end,
    return: key.return,
    escape: key.escape,
    backspace: key.backspace,
    delete: key.delete,
    ctrl: key.ctrl,
    meta: key.meta,
    tab: key.tab,
  };
}

/** Several characters in one read (fast typing, tmux send-keys, a paste) are several keys. */
function splitKeys(input: string, key: Key): KeyInput[] {
  const k = toKeyInput(input, key);
  const chars = [...input];
  const special =
    key.ctrl ||
    key.meta ||
    key.escape ||
    key.return ||
    key.tab ||
    key.backspace ||
    key.delete ||
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.pageUp ||
    key.pageDown;
  if (chars.length <= 1 || special) return [k];
  return chars.map((c): KeyInput => {
    if (c === '\r' || c === '\n') return { input: '', return: true };
    if (c === '\t') return { input: '', tab: true };
    if (c === '\x7f' || c === '\b') return { input: '', backspace: true };
    if (c === '\x03') return { input: 'c', ctrl: true };
    return { input: c };
  });
}

/** Each key read goes to the store one by one; Ctrl-C tells the caller first (a shell expects exit status 130). */
function useDashboardKeys(store: WatchStore, onInterrupt?: () => void): void {
  useInput((input, key) => {
    for (const k of splitKeys(input, key)) {
      if (k.ctrl && k.input === 'c') onInterrupt?.();
      store.dispatch({ type: 'key', key: k });
    }
  });
}

/** A terminal resize is an action like a key: the layout is recomputed from the state. */
function useResizeActions(store: WatchStore): void {
  const { stdout } = useStdout();
  useEffect(() => {
    const onResize = () => store.dispatch({ type: 'resize', size: sizeOf(stdout, store.getState().size) });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, store]);
}

/** Quitting is state the store reduces (q, Ctrl-C); leaving ink follows it once. */
function useQuitOnState(quit: boolean, onQuit?: () => void): void {
  const { exit } = useApp();
  useEffect(() => {
    if (!quit) return;
    onQuit?.();
    exit();
  }, [quit, onQuit, exit]);
}

/** The main pane: the help over everything, else the selected controller's (or Deployment's) detail, else the list. */
function mainPane(s: WatchState, layout: Layout, selected: PlanController | null, model: ExplainModel | null): ReactElement {
  if (s.help) return <HelpOverlay rows={layout.main} width={layout.width} />;
  if (s.view === 'detail' && selected)
    return (
      <DetailPane
        controller={selected}
        model={model}
        awaited={awaitedBy(s.frame, selected)}
        podCursor={s.podCursor}
        podTop={s.podTop}
        rows={layout.main}
        width={layout.width}
      />
    );
  const deployment = s.view === 'detail' ? selectedDeployment(s) : null;
  if (deployment) return <DeploymentPane deployment={deployment} rows={layout.main} width={layout.width} />;
  const showNamespace = s.frame ? frameCounts(s.frame).namespaces > 1 || s.meta.scope === 'all namespaces' : false;
  return (
    <ControllersPane
      frame={s.frame}
      rows={s.rows}
      top={s.top}
      cursor={s.cursor}
      height={layout.main}
      width={layout.width}
      showNamespace={showNamespace}
      filter={s.filter}
    />
  );
}

export function App({ store, color = true, onQuit, onInterrupt, onCommit }: AppProps) {
  const s = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  useDashboardKeys(store, onInterrupt);
  useResizeActions(store);
  useQuitOnState(s.quit, onQuit);

  useLayoutEffect(() => {
    onCommit?.(); // after ink has laid out and written the frame
  });

  const layout = computeLayout(s.size, s.meta.mode);
  const selected = selectedController(s);
  const model = useMemo(() => (s.view === 'detail' && s.frame && selected ? s.frame.explain(selected) : null), [s.view, s.frame, selected]);

  return (
    <ColorContext.Provider value={color}>
      <Box flexDirection="column" width={layout.width} height={layout.height}>
        <Header
          meta={s.meta}
          frame={s.frame}
          now={s.now}
          paused={s.paused}
          waiting={s.waiting}
          sort={s.sort}
          filter={s.filter}
          shown={s.order.length}
          width={layout.width}
        />
        {mainPane(s, layout, selected, model)}
        {layout.queue > 0 ? <QueuePane queue={s.queue} actions={s.actions.last(layout.queue)} rows={layout.queue} width={layout.width} /> : null}
        {layout.log > 0 && s.historyPane ? (
          <HistoryPane
            title={selected ? `${kindShort(selected.kind)} ${selected.namespace}/${selected.name}` : null}
            rows={historyRows(s, layout.log)}
            total={s.historySeq}
            height={layout.log}
            width={layout.width}
            paused={s.paused}
            note={s.historyNote}
          />
        ) : null}
        {layout.log > 0 && !s.historyPane ? (
          <LogPane entries={s.log.last(layout.log)} total={s.logSeq} rows={layout.log} width={layout.width} paused={s.paused} />
        ) : null}
        <FilterBar filter={s.filter} filtering={s.filtering} view={s.view} help={s.help} width={layout.width} />
      </Box>
    </ColorContext.Provider>
  );
}
