import { useCallback, useState } from 'react';
import { applyCascade, defaultLetterOf, emptyValues, letterEdited, type CampaignField, type CampaignValues, type CascadeAction, type FoundRepresentative } from './cascade';
import type { useDirectory } from './api';
import type { LetterState } from './LetterChoice';
import type { TextFieldName } from './CampaignFieldsets';

/**
 * The letter being written: its values, the errors the server gave each field (a field's error goes when it changes),
 * and the choice of a country whose default letter would replace the sender's own (asked, then offered to undo).
 */
export function useCampaignLetter(data: ReturnType<typeof useDirectory>['data']) {
  const [values, setValues] = useState<CampaignValues>(emptyValues);
  const [errors, setErrors] = useState<Partial<Record<CampaignField, string>>>({});
  const [letter, setLetter] = useState<LetterState>(null);

  const dispatch = useCallback(
    (action: CascadeAction, clears: CampaignField[]) => {
      setValues((current) => applyCascade(data, current, action));
      setErrors((current) => {
        if (!clears.some((f) => current[f])) return current;
        const next = { ...current };
        for (const f of clears) delete next[f];
        return next;
      });
    },
    [data],
  );
  const onText = (name: TextFieldName) => (event: { target: { value: string } }) => {
    if (name === 'message' && letter?.kind === 'replaced') setLetter(null);
    dispatch({ type: 'field', name, value: event.target.value }, [name]);
  };

  /**
   * A country (or a representative, found by the search box) is chosen. The sender's own letter is not thrown away:
   * when the new country's default letter would replace it, it stays and the form asks.
   */
  const chooseCountry = (code: string, rest?: Pick<FoundRepresentative, 'province' | 'district'>) => {
    const asks = code !== '' && code !== values.country && letterEdited(data, values) && defaultLetterOf(data, code) !== '';
    const clears: CampaignField[] = ['country', 'province', 'district', ...(asks ? [] : ['message' as const])];
    if (rest) dispatch({ type: 'representative', country: code, province: rest.province, district: rest.district, keepMessage: asks }, clears);
    else dispatch({ type: 'country', code, keepMessage: asks }, clears);
    setLetter(asks ? { kind: 'asking', country: code } : null);
  };
  const replaceLetter = () => {
    if (letter?.kind !== 'asking') return;
    setLetter({ kind: 'replaced', previous: values.message });
    dispatch({ type: 'field', name: 'message', value: defaultLetterOf(data, letter.country) }, ['message']);
  };
  const undoReplace = () => {
    if (letter?.kind !== 'replaced') return;
    dispatch({ type: 'field', name: 'message', value: letter.previous }, ['message']);
    setLetter(null);
  };
  const keepLetter = () => setLetter(null);

  return { values, errors, setErrors, dispatch, onText, letter, chooseCountry, replaceLetter, undoReplace, keepLetter };
}
