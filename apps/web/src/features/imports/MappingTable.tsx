import { dataFields, isDateKind, type CategoryDef, type ImportMapping } from '@app/shared';
import { useTranslation } from '../../lib/i18n';

/** Which column fills each field: matched from the headers by the server, corrected here. */
export function MappingTable({ category, columns, mapping, onChange }: { category: CategoryDef; columns: string[]; mapping: ImportMapping; onChange: (next: ImportMapping) => void }) {
  const { t } = useTranslation();
  const set = (field: string, value: ImportMapping[string] | null) => {
    const next = { ...mapping };
    if (value) next[field] = value;
    else delete next[field];
    onChange(next);
  };
  return (
    <div className="import-table-wrap">
      <table className="import-table import-mapping" data-testid="import-mapping">
        <caption>{t('imports.mappingCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('imports.field')}</th>
            <th scope="col">{t('imports.column')}</th>
            <th scope="col">{t('imports.calendar')}</th>
          </tr>
        </thead>
        <tbody>
          {dataFields(category).map((field) => {
            const source = mapping[field.name];
            const column = source && 'column' in source ? source.column : '';
            const fixed = source && 'value' in source ? source.value : null;
            const id = `import-map-${field.name}`;
            return (
              <tr key={field.name}>
                <th scope="row" data-label={t('imports.field')}>
                  <label htmlFor={id}>
                    {t(field.label)}
                    {field.required ? ' *' : ''}
                  </label>
                </th>
                <td data-label={t('imports.column')}>
                  <select id={id} value={fixed !== null ? '\u0000value' : column} onChange={(e) => set(field.name, e.target.value === '' ? null : e.target.value === '\u0000value' ? { value: fixed ?? '' } : { column: e.target.value })}>
                    <option value="">{t('imports.notImported')}</option>
                    {columns.filter((c) => c.trim()).map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                    <option value={'\u0000value'}>{t('imports.sameValue')}</option>
                  </select>
                  {fixed !== null && (
                    <input aria-label={t('imports.sameValueFor', { field: t(field.label) })} value={fixed} onChange={(e) => set(field.name, { value: e.target.value })} />
                  )}
                </td>
                <td data-label={t('imports.calendar')}>
                  {isDateKind(field.kind) && source && 'column' in source ? (
                    <select aria-label={t('imports.calendarOf', { field: t(field.label) })} value={source.calendar ?? ''} onChange={(e) => set(field.name, { column, ...(e.target.value ? { calendar: e.target.value as 'ethiopic' | 'gregorian' } : {}) })}>
                      <option value="">{t('imports.calendarAsMarked')}</option>
                      <option value="gregorian">{t('imports.gregorian')}</option>
                      <option value="ethiopic">{t('imports.ethiopic')}</option>
                    </select>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
