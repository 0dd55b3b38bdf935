import { FormStep, type IFormStep } from '@formily/antd-v5';
import { observer } from '@formily/react';
import { Button, Space } from 'antd';
import { useMemo, type ComponentProps } from 'react';

type Props = Omit<ComponentProps<typeof FormStep>, 'formStep'>;

/**
 * Formily's FormStep needs a `formStep` object made in code; a JSON schema cannot make one. This
 * makes its own and adds 上一步 / 下一步 (下一步 validates the current step first).
 */
const Steps = observer(function Steps({ formStep, ...props }: Props & { formStep: IFormStep }) {
  return (
    <>
      <FormStep {...props} formStep={formStep} />
      <Space style={{ marginBottom: 16 }}>
        <Button disabled={!formStep.allowBack} onClick={() => void formStep.back()}>
          上一步
        </Button>
        <Button disabled={!formStep.allowNext} onClick={() => void formStep.next()}>
          下一步
        </Button>
      </Space>
    </>
  );
});

export function FormSteps(props: Props) {
  const formStep = useMemo(() => FormStep.createFormStep(), []);
  return <Steps {...props} formStep={formStep} />;
}
FormSteps.StepPane = FormStep.StepPane;
