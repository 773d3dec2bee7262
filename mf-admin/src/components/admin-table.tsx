import type { ReactNode } from 'react';

export interface AdminTableColumn {
  label: string;
  /** a money or count column: right-aligned */
  amount?: boolean;
}

/**
 * A table of the admin area in its scrollable region (reachable by keyboard, named for screen
 * readers): the header row from `columns`, the rows as children, an optional footer row.
 */
export function AdminTable(props: { label: string; columns: readonly AdminTableColumn[]; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="admin-table-scroll" role="region" aria-label={props.label} tabIndex={0}>
      <table className="admin-table">
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.label} scope="col" className={column.amount ? 'admin-table__amount' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
        {props.footer ? <tfoot>{props.footer}</tfoot> : null}
      </table>
    </div>
  );
}
