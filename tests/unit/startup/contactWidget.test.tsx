import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ContactWidget } from '../../../src/frame/ContactWidget';
import { renderConsole } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

describe('operations contact widget', () => {
  it('a floating 运维联系 button opens the operations contacts', async () => {
    const user = userEvent.setup();
    renderConsole(<ContactWidget />);
    await user.click(screen.getByRole('button', { name: '运维联系' }));
    const card = await screen.findByTestId('operations-contact');
    expect(within(card).getByRole('link', { name: '400-820-6688' })).toHaveAttribute('href', 'tel:4008206688');
    expect(within(card).getByRole('link', { name: 'ops@iot-console.example' })).toHaveAttribute('href', 'mailto:ops@iot-console.example');
    expect(within(card).getByText(/工作时间/)).toBeInTheDocument();
  });
});
