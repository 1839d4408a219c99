import { countryCodes } from '@fbox/contracts';
import type { SelectProps } from 'antd';
import Select from 'antd/es/select';
import { useMemo } from 'react';
import { languageStore } from '../lib/i18n';
import { useStore } from '../lib/store';

/** The 41 dialling codes, each named in the user's language (Intl.DisplayNames). */
export const CountryCodeSelect = (props: SelectProps<string>) => {
  const language = useStore(languageStore);
  const options = useMemo(() => {
    const names = new Intl.DisplayNames([language === 'zh' ? 'zh-CN' : 'en'], { type: 'region' });
    return countryCodes.map(({ code, region }) => ({
      value: code,
      label: `+${code}`,
      title: names.of(region) ?? region,
      search: `${code} ${names.of(region) ?? region}`,
    }));
  }, [language]);
  return (
    <Select
      showSearch={{ optionFilterProp: 'search' }}
      options={options}
      optionRender={(option) => `+${option.value} ${option.data.title}`}
      popupMatchSelectWidth={220}
      {...props}
      value={props.value || undefined}
    />
  );
};
