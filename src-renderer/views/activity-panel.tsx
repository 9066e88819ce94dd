export function ActivityPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <aside id="activity-panel">
      <button onClick={onClose}>Close</button>
    </aside>
  );
}
