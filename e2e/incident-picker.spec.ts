import { expect, test } from './fixtures';
import { apiCreate, createContributor, useToken } from './editor-helpers';

/**
 * Issue 39: an editor links a victim to a massacre with the add form's incident picker (keyboard only), and the link
 * shows on both pages. Test data only: no real person or place.
 */
test('link a victim to a massacre in the form, see it on both pages', async ({ page, request }) => {
  const { token } = await createContributor(request, 'picker');
  // A word of the title no other record has, so the picker's options hold this massacre alone (typed in part).
  const word = `pickertest${Date.now().toString(36)}`;
  const massacre = await apiCreate(request, token, 'massacres', {
    title: `Sample massacre ${word} (test data)`,
    quantity: '7',
    location: 'Sample place (test data)',
    happenedOn: '2021-03-05T00:00:00Z',
    description: 'Test data, not a real incident.',
  });
  const victimTitle = `Sample victim linked by the picker ${word} (test data)`;
  const victimName = `Sample Person ${word}`;

  await useToken(page, token);
  await page.goto('/dashboard?category=victims');
  await page.getByLabel('Title', { exact: true }).fill(victimTitle);
  await page.getByLabel('Full name', { exact: true }).fill(victimName);
  await page.getByLabel('Description', { exact: true }).fill('Test data, not a real person.');

  const picker = page.getByRole('combobox', { name: 'Massacre or event' });
  await picker.focus();
  // Partly typed words, as an editor types before finishing one: "Sample mas" and the unique word but its last letters.
  await picker.pressSequentially(`Sample mas ${word.slice(0, word.length - 2)}`, { delay: 20 });
  const option = page.getByRole('option', { name: new RegExp(word) });
  await expect(option).toBeVisible();
  await expect(picker).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(picker).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('incident-chosen')).toContainText(massacre.title);

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1.0.0/victims'));
  await page.getByRole('button', { name: 'Submit' }).click();
  const res = await created;
  expect(res.status(), await res.text()).toBe(201);
  const victim = (await res.json()) as { _id: string; incidentId: string };
  expect(victim.incidentId).toBe(massacre._id);

  // The victim's page links the massacre.
  await page.goto(`/victims/${victim._id}`);
  await expect(page.getByTestId('incident-link').getByRole('link', { name: massacre.title })).toHaveAttribute('href', `/massacres/${massacre._id}`);

  // The massacre's page lists the victim among its people, counted against the reported number.
  await page.goto(`/massacres/${massacre._id}`);
  const people = page.getByTestId('incident-people');
  await expect(people.getByRole('link', { name: victimName })).toHaveAttribute('href', `/victims/${victim._id}`);
  await expect(people).toContainText('1 named victim of 7 reported killed');

  // Editing the victim shows the linked massacre by its title and date, not its id, and keeps it when saved.
  await page.goto(`/victims/edit/${victim._id}`);
  const chosen = page.getByTestId('incident-chosen');
  await expect(chosen).toContainText(massacre.title);
  await expect(chosen).toContainText('Sample place (test data)');
  await expect(chosen).not.toContainText(massacre._id);
});
